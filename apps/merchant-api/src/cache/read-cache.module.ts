import { Global, Inject, Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { createCache, type Cache } from 'cache-manager';
import { Keyv } from 'keyv';
import { LRUCache } from 'lru-cache';
import KeyvRedis, { createClient } from '@keyv/redis';
import { AuthModule } from '@app/auth';
import { APP_CONFIG, AppConfig } from '@app/config';
import { ChangeListener } from './change-listener.service';
import { CACHE_OPTIONS, CACHE_STORE, ReadCache, ReadCacheOptions } from './read-cache.service';

const CACHE_BACKEND = Symbol('CACHE_BACKEND');

interface CacheBackend {
  cache: Cache;
  close(): Promise<void>;
}

/**
 * A Map-shaped LRU for Keyv. Keyv keeps each entry's expiry inside the value and checks it on
 * read; it also passes a TTL as a third argument to `set`, which LRUCache would read as its own
 * options (and then drop the entry), so the adapter passes key and value only. A value larger
 * than the whole bound is not kept at all.
 *
 * Keyv hands it serialized JSON, which is kept as UTF-8 bytes outside the JavaScript heap: held
 * as strings, entries that live for minutes and are then evicted or superseded filled V8's old
 * generation with garbage, and V8 answered by growing the heap, so the process's RSS grew by
 * several times the cache's bound over the soak (docs/benchmarks.md). Each entry gets a buffer
 * of its own: a small Buffer.from() is a slice of a shared 8 KB slab and would keep the whole
 * slab alive.
 */
export function boundedMemoryStore(max: number, maxBytes: number) {
  const lru = new LRUCache<string, Buffer | object>({
    max,
    maxSize: maxBytes,
    sizeCalculation: (value, key) =>
      key.length + (Buffer.isBuffer(value) ? value.length : JSON.stringify(value).length),
  });
  const store = {
    get: (key: string) => {
      const value = lru.get(key);
      return Buffer.isBuffer(value) ? value.toString('utf8') : value;
    },
    set: (key: string, value: string | object) => {
      lru.set(key, typeof value === 'string' ? ownBytes(value) : value);
      return store;
    },
    delete: (key: string) => lru.delete(key),
    has: (key: string) => lru.has(key),
    clear: () => lru.clear(),
  };
  return store;
}

function ownBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text, 'utf8'));
  bytes.write(text, 'utf8');
  return bytes;
}

/**
 * Cached values are plain JSON (rows and pages: no Buffers, no BigInts), so Keyv gets the
 * built-in JSON codec instead of its default one, which builds each string by concatenation:
 * such a string lives as a tree of fragments several times its length (the soak's heap showed
 * 47 MB held by a cache bounded to 16 MB of text), and parsing it with a reviver cost 3% of a
 * cached read's CPU.
 */
export const JSON_CODEC = {
  serialize: (data: unknown): string => JSON.stringify(data),
  deserialize: <T>(text: string): T => JSON.parse(text) as T,
};

/**
 * cache-manager over Redis (@keyv/redis) when REDIS_URL is set, shared by every instance; an
 * in-process Keyv otherwise, bounded both to CACHE_MAX_ENTRIES entries and to CACHE_MAX_MB of
 * cached JSON, least recently used dropped first (Keyv's own Map never drops an expired entry
 * that is not read again, and a count alone let a few thousand balance pages of 100 rows hold
 * over 80 MB). The Redis client never queues commands while disconnected, so a Redis outage
 * turns into cache misses at once instead of stalled requests.
 */
function createBackend(config: AppConfig, logger: Logger): CacheBackend {
  const ttl = config.merchantApi.cacheTtlSeconds * 1000;
  if (!config.redis.url) {
    const store = boundedMemoryStore(
      config.merchantApi.cacheMaxEntries,
      config.merchantApi.cacheMaxBytes,
    );
    const cache = createCache({ stores: [new Keyv({ store, ...JSON_CODEC })], ttl });
    return { cache, close: () => cache.disconnect().then(() => undefined) };
  }
  const client = createClient({
    url: config.redis.url,
    name: 'merchant-api-cache',
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 2_000,
      reconnectStrategy: (attempt: number) => Math.min(100 * 2 ** attempt, 2_000),
    },
  });
  let healthy = true;
  const onError = (error: Error): void => {
    if (healthy) logger.warn(`redis cache unavailable: ${error.message}`);
    healthy = false;
  };
  client.on('error', onError);
  client.on('ready', () => {
    if (!healthy) logger.log('redis cache connection restored');
    healthy = true;
  });
  // Connects in the background and keeps retrying; until then every cache call is a fast miss.
  client.connect().catch(onError);
  const store = new KeyvRedis(client, {
    namespace: `${config.redis.keyPrefix}cache`,
    throwOnConnectError: false,
    throwOnErrors: true,
  });
  const keyv = new Keyv({
    store,
    namespace: `${config.redis.keyPrefix}cache`,
    useKeyPrefix: false,
    throwOnErrors: true,
    ...JSON_CODEC,
  });
  keyv.on('error', () => undefined);
  const cache = createCache({ stores: [keyv], ttl });
  return {
    cache,
    close: async () => {
      try {
        client.destroy();
      } catch {
        // already closed
      }
    },
  };
}

@Injectable()
class CacheBackendShutdown implements OnApplicationShutdown {
  constructor(
    @Inject(CACHE_BACKEND) private readonly backend: CacheBackend,
    private readonly cache: ReadCache,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    // Closed first: @keyv/redis reconnects a closed client on its next call.
    this.cache.close();
    await this.backend.close();
  }
}

/** The read cache and the listener that keeps it coherent; global, as every feature reads through it. */
@Global()
@Module({
  imports: [AuthModule],
  providers: [
    {
      provide: CACHE_BACKEND,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => createBackend(config, new Logger('ReadCache')),
    },
    {
      provide: CACHE_STORE,
      inject: [CACHE_BACKEND],
      useFactory: (backend: CacheBackend) => backend.cache,
    },
    {
      provide: CACHE_OPTIONS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): ReadCacheOptions => ({
        ttlMs: config.merchantApi.cacheTtlSeconds * 1000,
        operationTimeoutMs: config.redis.url ? 250 : undefined,
      }),
    },
    CacheBackendShutdown,
    ReadCache,
    ChangeListener,
  ],
  exports: [ReadCache, ChangeListener],
})
export class ReadCacheModule {}
