import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AppConfig, ConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { GlobalExceptionFilter } from '@app/errors';
import { HealthModule, loggerModule } from '@app/observability';
import { RedisModule } from '@app/redis';
import { AdminModule } from './admin/admin.module';
import { FieldCipherModule } from './common/field-cipher.module';
import { ExpiryModule } from './expiry/expiry.module';
import { PayinModule } from './payin/payin.module';
import { PayoutModule } from './payout/payout.module';
import { PaymentPageModule } from './payment-page/payment-page.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/** The processing core: owns every write (decisions.md section 1). */
@Module({})
export class CoreAppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CoreAppModule,
      imports: [
        ConfigModule.forRoot(config),
        loggerModule('core', config.logLevel),
        DatabaseModule.forRoot(config.database.url!, config.database.poolSize, 'core'),
        RedisModule.forRoot(config.redis.url, 'core', config.redis.keyPrefix),
        HealthModule,
        FieldCipherModule,
        AdminModule,
        PayinModule,
        PayoutModule,
        ExpiryModule,
        PaymentPageModule,
        WebhooksModule,
      ],
      providers: [{ provide: APP_FILTER, useClass: GlobalExceptionFilter }],
    };
  }
}
