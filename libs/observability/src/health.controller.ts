import { Controller, Get, Inject } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorFunction, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { ApiExcludeController } from '@nestjs/swagger';
import { REDIS_CLIENT, RedisClient } from '@app/redis';

/** For load balancers and orchestrators: liveness is the process, readiness its dependencies. */
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    @Inject(REDIS_CLIENT) private readonly redis: RedisClient,
  ) {}

  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @HealthCheck()
  ready() {
    const checks: HealthIndicatorFunction[] = [() => this.db.pingCheck('database', { timeout: 2000 })];
    const redis = this.redis;
    if (redis) {
      checks.push(async () => {
        const indicator = this.indicators.check('redis');
        try {
          await redis.ping();
          return indicator.up();
        } catch (error) {
          return indicator.down({ message: (error as Error).message });
        }
      });
    }
    return this.health.check(checks);
  }
}
