import { createServer as createHttpServer, IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';

/** What Node's HTTP server builds each request and response with. */
interface MessageClasses {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
}

/**
 * Request and response classes whose instances are born with the app's own prototypes
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
 * They are subclasses of Node's own, and the app adopts their prototypes as `app.request` and
 * `app.response` (same chain, same own properties). A plain constructor function that calls
 * Node's on `this` would give the same prototypes, but V8 sizes an object by the function that
 * constructs it: such a response left the function's few in-object fields full, and Node's
 * symbol-keyed fields then turned every response into a slow dictionary-mode object, about
 * 1 µs to build instead of 60 ns, and a miss in every inline cache that read it.
 */
function expressMessageClasses(app: Express): MessageClasses {
  class ExpressRequest extends IncomingMessage {}
  class ExpressResponse extends ServerResponse {}
  adoptPrototype(app, 'request', ExpressRequest.prototype);
  adoptPrototype(app, 'response', ExpressResponse.prototype);
  return {
    IncomingMessage: ExpressRequest,
    ServerResponse: ExpressResponse as unknown as typeof ServerResponse,
  };
}

/** Makes `prototype` the app's `app[key]`: it takes that object's place in the chain and its own properties. */
function adoptPrototype(app: Express, key: 'request' | 'response', prototype: object): void {
  const current = app[key] as object;
  Object.setPrototypeOf(prototype, Object.getPrototypeOf(current));
  for (const name of Reflect.ownKeys(current)) {
    Object.defineProperty(prototype, name, Object.getOwnPropertyDescriptor(current, name)!);
  }
  (app as unknown as Record<typeof key, object>)[key] = prototype;
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
