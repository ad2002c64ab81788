export {
  APP_LOGGER,
  loggerModule,
  requestId,
  requestLogFields,
  type LogDestination,
  type RequestLogFields,
} from './logger';
export { HealthModule } from './health.module';
export { createHttpApp, configureHttpApp, listen, type HttpAppOptions } from './http-app';
