import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppConfig } from '@app/config';
import { createHttpApp } from '@app/observability';
import { MerchantApiAppModule, MerchantApiModuleOptions } from './app.module';
import { setupOpenApi } from './openapi/openapi';

/** Builds the merchant API app (with /docs and /docs-json); used by main.ts and by the e2e tests alike. */
export async function createMerchantApiApp(
  config: AppConfig,
  options: MerchantApiModuleOptions = {},
): Promise<NestExpressApplication> {
  const { tlsCertFile, tlsKeyFile } = config.merchantApi;
  const app = await createHttpApp(MerchantApiAppModule.forRoot(config, options), {
    jsonLimit: config.merchantApi.jsonBodyLimit,
    trustProxy: config.merchantApi.trustProxy,
    tls: tlsCertFile && tlsKeyFile ? { certFile: tlsCertFile, keyFile: tlsKeyFile } : undefined,
  });
  setupOpenApi(app);
  return app;
}
