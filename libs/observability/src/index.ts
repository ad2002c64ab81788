export { loggerModule, requestId } from './logger';
export { HealthModule } from './health.module';
export { createHttpApp, configureHttpApp, listen, type HttpAppOptions } from './http-app';
