import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppConfig } from '@app/config';
import { createHttpApp } from '@app/observability';
import { MerchantApiAppModule } from './app.module';

/** Builds the merchant API app; used by main.ts and by the e2e tests alike. */
export function createMerchantApiApp(config: AppConfig): Promise<NestExpressApplication> {
  const { tlsCertFile, tlsKeyFile } = config.merchantApi;
  return createHttpApp(MerchantApiAppModule.forRoot(config), {
    jsonLimit: config.merchantApi.jsonBodyLimit,
    trustProxy: config.merchantApi.trustProxy,
    tls: tlsCertFile && tlsKeyFile ? { certFile: tlsCertFile, keyFile: tlsKeyFile } : undefined,
  });
}
