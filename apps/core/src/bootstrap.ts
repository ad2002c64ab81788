import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { AppConfig } from '@app/config';
import { createHttpApp } from '@app/observability';
import { CoreAppModule } from './app.module';

/** Builds the core app; used by main.ts and by the e2e tests alike. */
export async function createCoreApp(config: AppConfig): Promise<NestExpressApplication> {
  const app = await createHttpApp(CoreAppModule.forRoot(config), {
    jsonLimit: '1mb',
    trustProxy: config.merchantApi.trustProxy,
  });
  setUpCoreDocs(app);
  return app;
}

/**
 * The core's machine-readable contract (docs/core-api.md is the prose): the core API the merchant
 * API calls and the admin API, at /core/docs (UI) and /core/docs-json.
 */
function setUpCoreDocs(app: NestExpressApplication): void {
  const config = new DocumentBuilder()
    .setTitle('Payment gateway core')
    .setDescription(
      'The processing core. `/core/v1`: the calls the merchant API makes (bearer CORE_SERVICE_TOKEN); any processing system answering them the same way can stand in for this app. `/admin/v1`: the operator API (bearer ADMIN_TOKEN, operator named by `x-admin-actor`). Errors are `{ "message": "<ERROR_CODE>", "details"?: ... }`.',
    )
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'CORE_SERVICE_TOKEN' }, 'service')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' }, 'admin')
    .build();
  SwaggerModule.setup('core/docs', app, () => SwaggerModule.createDocument(app, config), {
    jsonDocumentUrl: 'core/docs-json',
    yamlDocumentUrl: 'core/docs-yaml',
  });
}
