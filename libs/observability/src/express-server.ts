import { createServer as createHttpServer, IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';

/** What Node's HTTP server builds each request and response with. */
interface MessageClasses {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
}

/**
 * Request and response constructors whose instances are born with the app's own prototypes
 * (`app.request`, `app.response`).
 *
 * Express 5 hands every request to `Object.setPrototypeOf(req, app.request)` (and the same for
 * `res`). On an object that already has its properties, V8 cannot reuse a cached hidden class for
 * that: each request gets new ones (a map and a copy of its property descriptors for every
 * property added afterwards), allocated straight into the old generation, and every property
 * access on `req` and `res` meets a hidden class its inline caches have never seen. Measured with
 * a bare Express app on Node 20 (docs/benchmarks.md): about ten new hidden classes per request,
 * and a quarter of the throughput. When the object already has that prototype, the call changes
 * nothing, so Express's handling is untouched.
 *
 * Plain functions rather than classes, because a class's `prototype` cannot be assigned.
 */
function expressMessageClasses(app: Express): MessageClasses {
  const initRequest = IncomingMessage as unknown as (this: unknown, socket: Socket) => void;
  const initResponse = ServerResponse as unknown as (
    this: unknown,
    req: IncomingMessage,
    options?: object,
  ) => void;
  function ExpressRequest(this: unknown, socket: Socket): void {
    initRequest.call(this, socket);
  }
  ExpressRequest.prototype = app.request;
  function ExpressResponse(this: unknown, req: IncomingMessage, options?: object): void {
    initResponse.call(this, req, options);
  }
  ExpressResponse.prototype = app.response;
  return {
    IncomingMessage: ExpressRequest as unknown as typeof IncomingMessage,
    ServerResponse: ExpressResponse as unknown as typeof ServerResponse,
  };
}

/**
 * Nest's Express adapter with a server that builds requests and responses through
 * `expressMessageClasses`. Everything else is the stock adapter; with `forceCloseConnections`
 * (which no app here sets) it falls back to the stock server.
 */
export class GatewayExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    if (options?.forceCloseConnections) return super.initHttpServer(options);
    const app = this.getInstance<Express>();
    const classes = expressMessageClasses(app);
    this.httpServer = options?.httpsOptions
      ? createHttpsServer({ ...options.httpsOptions, ...classes }, app)
      : createHttpServer(classes, app);
  }
}
