import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '@app/config';
import { MerchantApiAppModule } from '../apps/merchant-api/src/app.module';
import { buildOpenApiDocument } from '../apps/merchant-api/src/openapi/openapi';

/**
 * Writes the merchant API's OpenAPI document (the one served at /docs-json) without a database,
 * Redis or a core: Nest's preview mode resolves the module graph without instantiating providers.
 * Usage: `npm run openapi:export [-- <file>]`, default docs/openapi/merchant-api.json.
 */
const DEFAULT_OUTPUT = 'docs/openapi/merchant-api.json';

async function main(): Promise<void> {
  const output = resolve(process.argv[2] ?? DEFAULT_OUTPUT);
  // Placeholder secrets: the document depends on none of them, and no secrets file gets written.
  const config = loadConfig({
    ADMIN_TOKEN: 'openapi-export-placeholder',
    CORE_SERVICE_TOKEN: 'openapi-export-placeholder',
    ENCRYPTION_KEY: Buffer.alloc(32).toString('base64'),
    FILE_URL_KEY: 'openapi-export-placeholder',
    LOG_LEVEL: 'silent',
  });
  const app = await NestFactory.create(MerchantApiAppModule.forRoot(config), {
    preview: true,
    abortOnError: false,
    logger: false,
  });
  const document = buildOpenApiDocument(app);
  mkdirSync(dirname(output), { recursive: true });
  writeFileSync(output, `${JSON.stringify(document, null, 2)}\n`);
  process.stdout.write(`OpenAPI document written to ${output}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `openapi export failed: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
