export { APP_LOGGER, loggerModule, requestId, type LogDestination } from './logger';
export { HealthModule } from './health.module';
export { createHttpApp, configureHttpApp, listen, type HttpAppOptions } from './http-app';
