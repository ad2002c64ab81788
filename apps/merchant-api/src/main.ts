import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { listen } from '@app/observability';
import { applyRuntimeSettings, loadConfigOrExit } from '@app/config';
import { createMerchantApiApp } from './bootstrap';

async function main(): Promise<void> {
  const config = loadConfigOrExit({ requireDatabase: true });
  applyRuntimeSettings(config);
  const app = await createMerchantApiApp(config);
  const url = await listen(app, config.merchantApi.host, config.merchantApi.port);
  const shown = config.merchantApi.tlsCertFile ? url.replace(/^http:/, 'https:') : url;
  new Logger('merchant-api').log(
    `merchant API listening on ${shown} (API ${shown}/api/v1, docs ${shown}/docs)`,
  );
}

void main();
