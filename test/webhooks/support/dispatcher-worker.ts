/**
 * A process that does nothing but dispatch webhooks, for the crash test: the e2e suite starts it,
 * kills it with SIGKILL in the middle of a batch and starts it again. It builds the same
 * WebhooksModule the core runs, against DATABASE_URL, with the WEBHOOK_* settings of its env.
 */
import 'reflect-metadata';
import { DynamicModule, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppConfig, ConfigModule, loadConfigOrExit } from '@app/config';
import { DatabaseModule } from '@app/database';
import { FieldCipherModule } from '../../../apps/core/src/common/field-cipher.module';
import { WebhooksModule } from '../../../apps/core/src/webhooks/webhooks.module';

@Module({})
class DispatcherWorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: DispatcherWorkerModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(config.database.url!, 4, 'webhook-dispatcher-worker'),
        FieldCipherModule,
        WebhooksModule,
      ],
    };
  }
}

async function main(): Promise<void> {
  const config = loadConfigOrExit({ requireDatabase: true });
  const app = await NestFactory.createApplicationContext(DispatcherWorkerModule.forRoot(config), {
    logger: ['error'],
  });
  app.enableShutdownHooks();
  await app.init();
  process.stdout.write('dispatcher ready\n');
}

void main();
