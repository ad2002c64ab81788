import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppConfig } from '@app/config';
import { createHttpApp } from '@app/observability';
import { CoreAppModule } from './app.module';

/** Builds the core app; used by main.ts and by the e2e tests alike. */
export function createCoreApp(config: AppConfig): Promise<NestExpressApplication> {
  return createHttpApp(CoreAppModule.forRoot(config), {
    jsonLimit: '1mb',
    trustProxy: config.merchantApi.trustProxy,
  });
}
