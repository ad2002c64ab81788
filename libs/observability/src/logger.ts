import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { DynamicModule, Inject, Injectable, LoggerService, Module } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import pino, { type DestinationStream, type Level, type Logger as Pino } from 'pino';

/** Where log lines go: stdout by default; tests pass a stream to read them. */
export type LogDestination = DestinationStream;

/** The process's pino logger, for code that writes structured lines itself. */
export const APP_LOGGER = Symbol('APP_LOGGER');

const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

/** Keeps a caller's well-formed x-request-id, else makes one; echoed back as a header. */
export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('x-request-id', id);
  return id;
}

/**
 * What every line about a request carries. Query strings carry signatures, bodies carry card
 * numbers and files, headers carry tokens: only the method and the path are kept.
 */
export interface RequestLogFields {
  reqId: string;
  clientIp: string | undefined;
  req: { method: string; path: string };
}

/** A request as the logging middleware leaves it. */
type LoggedRequest = IncomingMessage & { id?: string; logFields?: RequestLogFields };

/**
 * The request's log fields, for a line the application writes about a request it has at hand
 * (`logger.warn({ ...requestLogFields(req) }, '...')`). Undefined before the logging middleware
 * ran. There is deliberately no implicit request scope (AsyncLocalStorage): on Node 20 it turns on
 * V8's promise hooks for the whole process, which took a sixth to a quarter of a cached read's
 * throughput (docs/benchmarks.md).
 */
export function requestLogFields(req: IncomingMessage): RequestLogFields | undefined {
  return (req as LoggedRequest).logFields;
}

/** A URL without its query string, which carries signatures. */
const pathOf = (url: string | undefined): string => {
  const raw = url ?? '';
  const query = raw.indexOf('?');
  return query === -1 ? raw : raw.slice(0, query);
};

const levelOf = (status: number): Level =>
  status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';

/**
 * One line per request, written when the response is finished (or the client went away):
 * `{ reqId, clientIp, req: { method, path }, res: { status }, latencyMs }` at info, warn for 4xx
 * and error for 5xx. Runs before the body parsers, so a request they refuse is logged too.
 * Health probes get a request id but no line.
 *
 * Written by hand rather than with pino-http: that builds two child loggers per request, which
 * cost a cached read a fifth of its CPU (docs/benchmarks.md).
 */
export function requestLogging(logger: Pino) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    const reqId = requestId(req, res);
    (req as LoggedRequest).id = reqId;
    const path = pathOf(req.originalUrl);
    if (path.startsWith('/health/')) return next();

    const fields: RequestLogFields = {
      reqId,
      // Express's req.ip: X-Forwarded-For is believed only from the proxies TRUST_PROXY names.
      clientIp: req.ip ?? req.socket.remoteAddress,
      req: { method: req.method, path },
    };
    const done = (): void => {
      res.removeListener('finish', done);
      res.removeListener('close', done);
      const status = res.statusCode;
      const latencyMs = Math.round((performance.now() - started) * 10) / 10;
      // Literals, not `{ ...fields }`: a spread grown by more fields missed V8's inline caches on
      // every request (docs/benchmarks.md).
      const { reqId: id, clientIp, req: line } = fields;
      if (res.writableFinished) {
        logger[levelOf(status)](
          { reqId: id, clientIp, req: line, res: { status }, latencyMs },
          `${line.method} ${path} ${status}`,
        );
      } else {
        logger.warn(
          { reqId: id, clientIp, req: line, res: { status }, latencyMs, aborted: true },
          `${line.method} ${path} aborted by the client`,
        );
      }
    };
    (req as LoggedRequest).logFields = fields;
    res.on('finish', done);
    res.on('close', done);
    next();
  };
}

const NEST_LEVELS = {
  log: 'info',
  error: 'error',
  warn: 'warn',
  debug: 'debug',
  verbose: 'trace',
  fatal: 'fatal',
} as const satisfies Record<string, Level>;

/**
 * Nest's Logger onto pino: `new Logger('Name').warn(...)` becomes a JSON line with `context`. A
 * message may be a string, an Error, or an object of fields (a request's among them, see
 * requestLogFields) followed by the text.
 */
@Injectable()
export class NestPinoLogger implements LoggerService {
  constructor(@Inject(APP_LOGGER) private readonly logger: Pino) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write(NEST_LEVELS.log, message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write(NEST_LEVELS.error, message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write(NEST_LEVELS.warn, message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write(NEST_LEVELS.debug, message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write(NEST_LEVELS.verbose, message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write(NEST_LEVELS.fatal, message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    if (!this.logger.isLevelEnabled(level)) return;
    const rest = [...params];
    // Nest appends a Logger's context as the last argument.
    const context =
      rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? rest.pop() : undefined;
    const fields: Record<string, unknown> = { context };
    let text: string | undefined;
    if (message instanceof Error) {
      fields.err = message; // pino's err serializer keeps its type, message and stack
      text = message.message;
    } else if (message !== null && typeof message === 'object') {
      Object.assign(fields, message);
      if (typeof rest[0] === 'string') text = rest.shift() as string;
    } else {
      text = String(message);
      // Logger.error(message, stack): Nest's way to pass a stack.
      if (level === 'error' && typeof rest[0] === 'string') fields.stack = rest.shift();
    }
    this.logger[level](fields, text);
  }
}

/**
 * JSON lines on stdout (or a test's stream), written asynchronously and in batches: a write
 * waits until 4 KB of lines are pending or 200 ms have passed, instead of one write call per
 * request (a balance page spent 7% of its CPU there). Pino writes what is pending when the
 * process exits, an uncaught exception included. The redaction is a safety net: no line of ours
 * carries these fields.
 */
export function createLogger(service: string, level: string, destination?: LogDestination): Pino {
  return pino(
    {
      level,
      base: { service },
      redact: {
        paths: ['req.headers', 'res.headers', 'body', 'signature', 'privateToken', 'cardNumber'],
        remove: true,
      },
    },
    destination ?? stdout(),
  );
}

let sharedStdout: DestinationStream | undefined;

/**
 * One stdout destination per process, shared by every app in it (the tests run several), so
 * there is one write buffer and one flush timer however many apps come and go.
 */
function stdout(): DestinationStream {
  sharedStdout ??= pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 200 });
  return sharedStdout;
}

@Module({})
class LoggerModule {}

/** The app's logger: APP_LOGGER (pino) and NestPinoLogger, which http-app.ts installs. */
export function loggerModule(
  service: string,
  level: string,
  destination?: LogDestination,
): DynamicModule {
  return {
    module: LoggerModule,
    global: true,
    providers: [
      { provide: APP_LOGGER, useValue: createLogger(service, level, destination) },
      NestPinoLogger,
    ],
    exports: [APP_LOGGER, NestPinoLogger],
  };
}
