import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import type { DynamicModule } from '@nestjs/common';
import { destination as pinoDestination, type DestinationStream } from 'pino';
import type { Options } from 'pino-http';

/** Where log lines go: stdout by default; tests pass a stream to read them. */
export type LogDestination = DestinationStream;

const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

/** Keeps a caller's well-formed x-request-id, else makes one; echoed back as a header. */
export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('x-request-id', id);
  return id;
}

/** A URL without its query string, which carries signatures. */
const pathOf = (url: string | undefined): string => (url ?? '').split('?')[0];

/** The message of a request's own line: `GET /api/v1/payin/… 200`. */
const requestSummary = (req: IncomingMessage, res: ServerResponse): string =>
  `${req.method} ${pathOf(req.url)} ${res.statusCode}`;

/**
 * JSON logs, one line per request with its id, status and latency. Only the method and the
 * path are logged: query strings carry signatures, bodies carry card numbers and files, and
 * headers carry tokens, so none of them is written.
 */
export function loggerModule(
  service: string,
  level: string,
  destination?: LogDestination,
): DynamicModule {
  const pinoHttp: Options = {
    level,
    base: { service },
    genReqId: requestId,
    customAttributeKeys: { responseTime: 'latencyMs' },
    // Our serializers read the raw request and response: pino-std-serializers' wrapping would
    // build a full copy of each per request only for these three fields to be picked from it.
    wrapSerializers: false,
    serializers: {
      req: (req: IncomingMessage) => ({ method: req.method, path: pathOf(req.url) }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
    // reqId and clientIp at the top level of every line of the request (the req serializer drops
    // the id), bound in the same child logger as `req`: pino-http makes one more child per
    // request for quietReqLogger, and each child costs (a tenth of a cached read's CPU went there).
    // clientIp is Express's req.ip: X-Forwarded-For is believed only from the proxies TRUST_PROXY
    // names.
    customProps: (req: IncomingMessage) => ({
      reqId: (req as IncomingMessage & { id?: unknown }).id,
      clientIp: (req as IncomingMessage & { ip?: string }).ip ?? req.socket?.remoteAddress,
    }),
    customSuccessMessage: requestSummary,
    customErrorMessage: requestSummary,
    customLogLevel: (_req, res, error) =>
      error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
    redact: {
      paths: ['req.headers', 'res.headers', 'body', 'signature', 'privateToken', 'cardNumber'],
      remove: true,
    },
    autoLogging: { ignore: (req: IncomingMessage) => (req.url ?? '').startsWith('/health/') },
  };
  // Asynchronous stdout: lines written while a write is in flight go out together in one call,
  // instead of one blocking write per request (the benchmark's top self-time). Pino flushes it
  // on exit.
  const target = destination ?? pinoDestination({ dest: 1, sync: false });
  return LoggerModule.forRoot({ pinoHttp: [pinoHttp, target] });
}
