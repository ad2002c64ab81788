import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Cache } from 'cache-manager';
import { LRUCache } from 'lru-cache';
import { bounded } from '@app/redis';

export const CACHE_STORE = Symbol('CACHE_STORE');
export const CACHE_OPTIONS = Symbol('CACHE_OPTIONS');
const PROBE_KEY = 'probe';
/** Keys the doorkeeper remembers; a key forgotten sooner only costs one more load. */
const DOORKEEPER_KEYS = 10_000;

/**
 * When a loaded value is worth a cache write: `first-miss` always; `second-miss` only when the
 * same key missed before within the cache's TTL (for keys mostly read once, see readThrough).
 */
export type Admission = 'first-miss' | 'second-miss';

export interface ReadCacheOptions {
  ttlMs: number;
  /**
   * A cache call slower than this counts as a miss: a stalled Redis must not stall reads. None
   * for the in-process store, which cannot stall.
   */
  operationTimeoutMs?: number;
}

/**
 * Read-through cache in front of PostgreSQL (cache-manager: Redis or in-process).
 *
 * Coherence: ChangeListener deletes keys when the core announces a change. A read that loaded
 * from the database before such an announcement must not put its older value back afterwards,
 * so every invalidation is stamped with a counter and a load only fills the cache when no
 * invalidation of its key (or a resync) happened while it ran. While the listener is
 * disconnected the cache is bypassed entirely: announcements may be lost, the database is not.
 * Any cache failure is a miss; reads then come from the database. A failed invalidation (Redis
 * unreachable) turns the cache off too, until a resync has cleared it.
 */
@Injectable()
export class ReadCache {
  private readonly logger = new Logger(ReadCache.name);
  private coherent = false;
  private counter = 0;
  private lastResync = 0;
  /** Invalidation stamps of the last two sweep periods: only loads in flight need them. */
  private recent = new Map<string, number>();
  private previous = new Map<string, number>();
  private lastSweep = Date.now();
  private failureLogged = false;
  /** The app is shutting down (`close`): no call reaches the store any more. */
  private closed = false;
  /** Keys that missed once recently, for `second-miss` admission. Keys only, no values. */
  private readonly doorkeeper: LRUCache<string, true>;

  constructor(
    @Inject(CACHE_STORE) private readonly cache: Cache,
    @Inject(CACHE_OPTIONS) private readonly options: ReadCacheOptions,
  ) {
    this.doorkeeper = new LRUCache({ max: DOORKEEPER_KEYS, ttl: options.ttlMs });
  }

  get isCoherent(): boolean {
    return this.coherent;
  }

  /**
   * The cached value of `key`, else `load()`'s, cached unless `guardKey` was invalidated meanwhile.
   *
   * With `second-miss` admission a value is cached only on the second miss of its key: a key
   * read once (a random page deep in a million-record ledger) costs no serialization and no
   * write, and cannot push the entries that are read again (page 1, a payin being polled) out of
   * the bounded cache. A key read twice is cached from then on.
   */
  async readThrough<T>(
    key: string,
    load: () => Promise<T | null>,
    guardKey = key,
    admission: Admission = 'first-miss',
  ): Promise<T | null> {
    if (!this.coherent) return load();
    const cached = await this.get<T>(key);
    if (cached !== undefined) return cached;
    const stamp = this.counter;
    const value = await load();
    if (value === null || !this.unchangedSince(guardKey, stamp) || !this.admits(key, admission))
      return value;
    await this.set(key, value);
    return value;
  }

  async get<T>(key: string): Promise<T | undefined> {
    if (!this.coherent) return undefined;
    try {
      const value = await this.bounded(this.cache.get<T>(key));
      return value ?? undefined;
    } catch (error) {
      this.reportFailure(error);
      return undefined;
    }
  }

  /** Stores `value` unless the cache became incoherent; `stamp` guards against a concurrent invalidation. */
  async set(key: string, value: unknown, guard?: { key: string; stamp: number }): Promise<void> {
    if (!this.coherent || (guard && !this.unchangedSince(guard.key, guard.stamp))) return;
    try {
      await this.bounded(this.cache.set(key, value, this.options.ttlMs));
    } catch (error) {
      this.reportFailure(error);
    }
  }

  /** The counter a later `set(..., { stamp })` compares against. */
  stamp(): number {
    return this.counter;
  }

  /** Drops `key` here and in the shared store; loads in flight for it will not cache. */
  async invalidate(key: string): Promise<void> {
    if (this.closed) return;
    this.counter += 1;
    this.sweep();
    this.recent.set(key, this.counter);
    try {
      await this.bounded(this.cache.del(key));
    } catch (error) {
      // The entry may survive in the shared store: stop using the cache until it is cleared.
      this.reportFailure(error);
      this.markIncoherent();
    }
  }

  /** Change announcements may be lost from now on: serve from the database only. */
  markIncoherent(): void {
    if (this.coherent)
      this.logger.warn(
        'change notifications interrupted: reading from PostgreSQL without the cache',
      );
    this.coherent = false;
    this.counter += 1;
    this.lastResync = this.counter;
  }

  /**
   * Announcements flow again: forget whatever may have changed unannounced, check the store
   * answers, then use the cache. A failure leaves the cache off; the listener retries.
   */
  async resync(): Promise<boolean> {
    if (this.closed) return false;
    this.counter += 1;
    this.lastResync = this.counter;
    try {
      await this.bounded(this.cache.clear());
      // clear() reports success even from an unreachable Redis; a write and a delete do not.
      await this.bounded(this.cache.set(PROBE_KEY, this.counter, 1_000));
      await this.bounded(this.cache.del(PROBE_KEY));
    } catch (error) {
      this.reportFailure(error);
      return false;
    }
    if (!this.coherent) this.logger.log('change notifications active: cache enabled');
    this.coherent = true;
    this.failureLogged = false;
    return true;
  }

  /**
   * For shutdown, before the store's connection closes: from now on every read is a miss and
   * nothing is written or deleted. The Redis store reconnects on its next call, so a change
   * announced during shutdown would otherwise reopen the connection and keep the process alive.
   */
  close(): void {
    this.closed = true;
    this.coherent = false;
  }

  private admits(key: string, admission: Admission): boolean {
    if (admission === 'first-miss' || this.doorkeeper.delete(key)) return true;
    this.doorkeeper.set(key, true);
    return false;
  }

  private unchangedSince(key: string, stamp: number): boolean {
    if (this.lastResync > stamp) return false;
    const invalidated = this.recent.get(key) ?? this.previous.get(key) ?? 0;
    return invalidated <= stamp;
  }

  private sweep(): void {
    // Loads take milliseconds; stamps older than two sweep periods can no longer matter.
    if (Date.now() - this.lastSweep < 30_000) return;
    this.previous = this.recent;
    this.recent = new Map();
    this.lastSweep = Date.now();
  }

  private bounded<T>(operation: Promise<T>): Promise<T> {
    const ms = this.options.operationTimeoutMs;
    return ms === undefined ? operation : bounded(operation, ms);
  }

  private reportFailure(error: unknown): void {
    if (this.failureLogged) return;
    this.failureLogged = true;
    this.logger.warn(
      `cache unavailable, reading from PostgreSQL: ${(error as Error)?.message ?? String(error)}`,
    );
  }
}
