export { bounded, REDIS_TIMEOUT_MS, TimeoutError } from './bounded';
export { RedisModule, REDIS_CLIENT, createRedisClient, type RedisClient } from './redis.module';
