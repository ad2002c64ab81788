import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { listen } from '@app/observability';
import { applyRuntimeSettings, loadConfigOrExit } from '@app/config';
import { createCoreApp } from './bootstrap';

async function main(): Promise<void> {
  const config = loadConfigOrExit({ requireDatabase: true });
  applyRuntimeSettings(config);
  const app = await createCoreApp(config);
  const url = await listen(app, config.core.host, config.core.port);
  new Logger('core').log(
    `core listening on ${url} (core API /core/v1, admin API /admin/v1, health ${url}/health/ready)`,
  );
}

void main();
