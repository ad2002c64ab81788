import { types } from 'node:util';
import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  HttpStatus,
  Logger,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppException, ErrorBody } from './app.exception';
import { ErrorCode } from './error-codes';

interface Mapped {
  status: number;
  body: ErrorBody;
  headers?: Record<string, string>;
  unexpected?: boolean;
}

/** Errors that body-parser and multer raise before a controller runs. */
interface LowerLayerError {
  type?: string;
  code?: string;
  status?: number;
  statusCode?: number;
}

const MULTER_TOO_LARGE = new Set(['LIMIT_FILE_SIZE']);

/**
 * Maps every failure onto `{ message: <code>, details? }`. Registered as APP_FILTER so that
 * apps built by tests get it too. Unknown errors become 500 ERROR_SERVER_INTERNAL_ERROR; the
 * stack goes to the log with the request id, never to the client.
 */
@Catch()
export class GlobalExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const response = ctx.getResponse<Response>();
    const request = ctx.getRequest<Request>();
    const mapped = mapException(exception);

    if (mapped.unexpected) {
      this.logger.error(unexpectedErrorFields(request, exception), 'unhandled error');
    }
    if (response.headersSent) return;
    for (const [name, value] of Object.entries(mapped.headers ?? {}))
      response.setHeader(name, value);
    response.status(mapped.status).json(mapped.body);
  }
}

/**
 * What the log says about an unexpected failure: the fields its request line carries (`reqId`,
 * `clientIp`, `req: { method, path }`), so one query finds both, and the error with its stack.
 * The logging middleware of libs/observability leaves those fields on the request as `logFields`;
 * this library cannot import it (observability depends on errors), so it reads the property and,
 * for a request the middleware did not see, builds the same shape.
 */
export function unexpectedErrorFields(request: Request, exception: unknown): object {
  const logged = (request as Request & { logFields?: object }).logFields;
  return {
    ...(logged ?? {
      reqId: (request as Request & { id?: unknown }).id,
      req: { method: request.method, path: request.originalUrl?.split('?')[0] },
    }),
    // isNativeError also knows errors made in another realm (a vm context, as under Jest).
    err:
      exception instanceof Error || types.isNativeError(exception)
        ? { name: exception.name, message: exception.message, stack: exception.stack }
        : String(exception),
  };
}

export function mapException(exception: unknown): Mapped {
  if (exception instanceof AppException) {
    const body: ErrorBody = { message: exception.code };
    if (exception.details !== undefined) body.details = exception.details;
    return { status: exception.status, body, headers: exception.headers };
  }

  const lower = (exception ?? {}) as LowerLayerError;
  if (lower.type === 'entity.parse.failed') {
    return {
      status: 400,
      body: {
        message: ErrorCode.INVALID_REQUEST,
        details: [{ field: 'body', errors: ['malformed JSON'] }],
      },
    };
  }
  if (lower.type === 'entity.too.large') {
    return { status: 413, body: { message: ErrorCode.PAYLOAD_TOO_LARGE } };
  }
  if (exception instanceof Error && exception.name === 'MulterError' && lower.code) {
    if (MULTER_TOO_LARGE.has(lower.code))
      return { status: 413, body: { message: ErrorCode.FILE_TOO_LARGE } };
    return {
      status: 400,
      body: {
        message: ErrorCode.INVALID_REQUEST,
        details: [{ field: 'document', errors: [lower.code] }],
      },
    };
  }
  if (lower.type && typeof lower.status === 'number' && lower.status >= 400 && lower.status < 500) {
    // body-parser's other refusals: unsupported charset or encoding, aborted request, ...
    return {
      status: lower.status,
      body: {
        message: ErrorCode.INVALID_REQUEST,
        details: [{ field: 'body', errors: [lower.type] }],
      },
    };
  }

  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status === HttpStatus.NOT_FOUND)
      return { status, body: { message: ErrorCode.ROUTE_NOT_FOUND } };
    if (status === HttpStatus.PAYLOAD_TOO_LARGE)
      return { status, body: { message: ErrorCode.PAYLOAD_TOO_LARGE } };
    if (status >= 400 && status < 500) {
      return {
        status,
        body: {
          message: ErrorCode.INVALID_REQUEST,
          details: [{ field: 'request', errors: [exception.message] }],
        },
      };
    }
  }

  return { status: 500, body: { message: ErrorCode.SERVER_INTERNAL_ERROR }, unexpected: true };
}
