export { RedisModule, REDIS_CLIENT, createRedisClient, type RedisClient } from './redis.module';
