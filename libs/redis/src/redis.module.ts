import {
  DynamicModule,
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  OnApplicationShutdown,
} from '@nestjs/common';
import Redis from 'ioredis';

export const REDIS_CLIENT = Symbol('REDIS_CLIENT');

/** Null when REDIS_URL is unset: callers then use their in-process or PostgreSQL fallback. */
export type RedisClient = Redis | null;

export function createRedisClient(url: string, name: string, keyPrefix = ''): Redis {
  return new Redis(url, {
    connectionName: name,
    keyPrefix,
    // Fail fast while Redis is down, so callers fall back instead of queueing requests.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    // A Redis that accepts connections but stops answering must not hang requests or health checks.
    commandTimeout: 1000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
}

@Injectable()
class RedisShutdown implements OnApplicationShutdown {
  constructor(@Inject(REDIS_CLIENT) private readonly redis: RedisClient) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis?.quit().catch(() => this.redis?.disconnect());
  }
}

@Global()
@Module({})
export class RedisModule {
  static forRoot(url: string | undefined, name: string, keyPrefix = ''): DynamicModule {
    const logger = new Logger('Redis');
    return {
      module: RedisModule,
      providers: [
        {
          provide: REDIS_CLIENT,
          useFactory: (): RedisClient => {
            if (!url) return null;
            const client = createRedisClient(url, name, keyPrefix);
            let healthy = true;
            client.on('error', (error: Error) => {
              if (healthy) logger.warn(`redis unavailable: ${error.message}`);
              healthy = false;
            });
            client.on('ready', () => {
              if (!healthy) logger.log('redis connection restored');
              healthy = true;
            });
            return client;
          },
        },
        RedisShutdown,
      ],
      exports: [REDIS_CLIENT],
    };
  }
}
