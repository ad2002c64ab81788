import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AppConfig, ConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { GlobalExceptionFilter } from '@app/errors';
import { HealthModule, loggerModule } from '@app/observability';
import { RedisModule } from '@app/redis';

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
      ],
      providers: [{ provide: APP_FILTER, useClass: GlobalExceptionFilter }],
    };
  }
}
