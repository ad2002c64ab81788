import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { sha256Hex } from '@app/crypto';
import { bounded, REDIS_CLIENT, RedisClient } from '@app/redis';

/**
 * Remembers the nonces each store has used, so a replayed request is refused on every instance
 * (decisions.md section 3). Redis `SET NX EX` when configured; the `used_nonces` table without
 * Redis, and also while Redis is unreachable or not answering, so protection degrades to
 * slower, not to none.
 */
@Injectable()
export class NonceStore {
  private readonly logger = new Logger(NonceStore.name);

  constructor(
    private readonly dataSource: DataSource,
    @Inject(REDIS_CLIENT) private readonly redis: RedisClient,
  ) {}

  /** True the first time a store uses `nonce` within `ttlSeconds`; false for a replay. */
  async remember(storeId: number, nonce: string, ttlSeconds: number): Promise<boolean> {
    if (this.redis) {
      try {
        // The ioredis client adds REDIS_KEY_PREFIX; the hash keeps any nonce text a safe key.
        const key = `merchant-api:nonce:${storeId}:${sha256Hex(nonce)}`;
        const reply = await bounded(this.redis.set(key, '1', 'EX', ttlSeconds, 'NX'));
        return reply === 'OK';
      } catch (error) {
        this.logger.warn(`nonce check falls back to PostgreSQL: ${(error as Error).message}`);
      }
    }
    return this.rememberInDatabase(storeId, nonce, ttlSeconds);
  }

  private async rememberInDatabase(
    storeId: number,
    nonce: string,
    ttlSeconds: number,
  ): Promise<boolean> {
    // The primary key decides under concurrency; an expired row is taken over in the same statement.
    const rows = (await this.dataSource.query(
      `INSERT INTO used_nonces (store_id, nonce, expires_at)
       VALUES ($1, $2, now() + make_interval(secs => $3))
       ON CONFLICT (store_id, nonce) DO UPDATE SET expires_at = EXCLUDED.expires_at
         WHERE used_nonces.expires_at < now()
       RETURNING 1 AS fresh`,
      [storeId, nonce, ttlSeconds],
    )) as unknown[];
    return rows.length === 1;
  }
}
