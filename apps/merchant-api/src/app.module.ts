import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AppConfig, ConfigModule } from '@app/config';
import { CoreClientModule } from '@app/core-client';
import { DatabaseModule } from '@app/database';
import { GlobalExceptionFilter } from '@app/errors';
import { HealthModule, loggerModule, type LogDestination } from '@app/observability';
import { RedisModule } from '@app/redis';
import { BalanceModule } from './balance/balance.module';
import { ReadCacheModule } from './cache/read-cache.module';
import { HousekeepingModule } from './housekeeping/housekeeping.module';
import { PayinModule } from './payin/payin.module';
import { PayoutModule } from './payout/payout.module';

export interface MerchantApiModuleOptions {
  /** Where request logs go; stdout unless a test captures them. */
  logDestination?: LogDestination;
}

/** The public merchant API of merchant-api.md: reads stored data, hands mutations to the core. */
@Module({})
export class MerchantApiAppModule {
  static forRoot(config: AppConfig, options: MerchantApiModuleOptions = {}): DynamicModule {
    return {
      module: MerchantApiAppModule,
      imports: [
        ConfigModule.forRoot(config),
        loggerModule('merchant-api', config.logLevel, options.logDestination),
        DatabaseModule.forRoot(config.database.url!, config.database.poolSize, 'merchant-api'),
        RedisModule.forRoot(config.redis.url, 'merchant-api', config.redis.keyPrefix),
        HealthModule,
        CoreClientModule.forRoot(),
        ReadCacheModule,
        HousekeepingModule,
        PayinModule,
        PayoutModule,
        BalanceModule,
      ],
      providers: [{ provide: APP_FILTER, useClass: GlobalExceptionFilter }],
    };
  }
}
