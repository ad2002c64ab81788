import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AppConfig, ConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { GlobalExceptionFilter } from '@app/errors';
import { HealthModule, loggerModule } from '@app/observability';
import { RedisModule } from '@app/redis';

/** The public merchant API of merchant-api.md: reads stored data, hands mutations to the core. */
@Module({})
export class MerchantApiAppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: MerchantApiAppModule,
      imports: [
        ConfigModule.forRoot(config),
        loggerModule('merchant-api', config.logLevel),
        DatabaseModule.forRoot(config.database.url!, config.database.poolSize, 'merchant-api'),
        RedisModule.forRoot(config.redis.url, 'merchant-api', config.redis.keyPrefix),
        HealthModule,
      ],
      providers: [{ provide: APP_FILTER, useClass: GlobalExceptionFilter }],
    };
  }
}
