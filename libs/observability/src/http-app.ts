import { readFileSync } from 'node:fs';
import type { INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { json, urlencoded } from 'express';
import { createValidationPipe } from '@app/errors';
import { GatewayExpressAdapter } from './express-server';
import { APP_LOGGER, NestPinoLogger, requestLogging } from './logger';

export interface HttpAppOptions {
  jsonLimit: string;
  trustProxy: string[];
  tls?: { certFile: string; keyFile: string };
}

/**
 * Builds an app the way main.ts and the e2e tests both need it: the same logger, body limits,
 * validation and proxy trust, so tests exercise the production middleware. The server builds
 * requests and responses with Express's prototypes already set (GatewayExpressAdapter).
 */
export async function createHttpApp(
  module: Type<unknown> | ReturnType<typeof Object>,
  options: HttpAppOptions,
): Promise<NestExpressApplication> {
  const httpsOptions = options.tls
    ? { cert: readFileSync(options.tls.certFile), key: readFileSync(options.tls.keyFile) }
    : undefined;
  const app = await NestFactory.create<NestExpressApplication>(
    module as Type<unknown>,
    new GatewayExpressAdapter(),
    { bufferLogs: true, bodyParser: false, httpsOptions },
  );
  configureHttpApp(app, options);
  return app;
}

export function configureHttpApp(app: NestExpressApplication, options: HttpAppOptions): void {
  app.useLogger(app.get(NestPinoLogger));
  app.disable('x-powered-by');
  app.set('trust proxy', options.trustProxy.length ? options.trustProxy : false);
  app.set('etag', false);
  app.use(requestLogging(app.get(APP_LOGGER)));
  app.use(json({ limit: options.jsonLimit }));
  app.use(urlencoded({ extended: false, limit: options.jsonLimit }));
  app.useGlobalPipes(createValidationPipe());
  app.enableShutdownHooks();
}

export async function listen(app: INestApplication, host: string, port: number): Promise<string> {
  await app.listen(port, host);
  const address = app.getHttpServer().address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return `http://${host}:${actualPort}`;
}
