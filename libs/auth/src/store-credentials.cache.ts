import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { StoreCredentials } from './auth.types';

/** A store's credentials with its private token already unsealed. */
export interface ResolvedStore extends StoreCredentials {
  readonly privateToken: string;
}

const MAX_ENTRIES = 10_000;
/** A bound on any announcement that goes missing although the listener stayed connected. */
const MAX_AGE_MS = 60_000;

/**
 * The credentials of recently seen stores, kept in this process only: private tokens never go
 * to Redis or a log. Every signed request needs them, and reading and unsealing them per request
 * was most of the guard's cost (docs/benchmarks.md).
 *
 * Coherence follows the read cache's rules: the merchant API's ChangeListener hears the core's
 * store and merchant announcements (token rotation, access flags, settings) and forgets that
 * store's or merchant's entries (`forgetStore`, `forgetMerchant`); while it is not listening the
 * cache is off (`suspend()`), so a missed announcement cannot keep a rotated token or a disabled
 * merchant alive. A load that started before any forgetting does not store what it read.
 * Unknown tokens and unreadable records are never cached.
 */
@Injectable()
export class StoreCredentialsCache {
  private readonly entries = new LRUCache<string, ResolvedStore>({
    max: MAX_ENTRIES,
    ttl: MAX_AGE_MS,
  });
  private generation = 0;
  private active = false;

  /** The cached store of `publicToken`, else `load()`'s, cached unless a clear happened meanwhile. */
  async resolve(
    publicToken: string,
    load: () => Promise<ResolvedStore | null>,
  ): Promise<ResolvedStore | null> {
    if (this.active) {
      const hit = this.entries.get(publicToken);
      if (hit) return hit;
    }
    const generation = this.generation;
    const loaded = await load();
    if (loaded && this.active && generation === this.generation)
      this.entries.set(publicToken, loaded);
    return loaded;
  }

  /** Forget every entry; a load in flight is not kept either. */
  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  /**
   * A store changed (token rotation, settings): forget its entries only, so one operator's
   * change does not send every other store's next request back to the database. A load in
   * flight, of any store, is not kept.
   */
  forgetStore(storeId: number): void {
    this.forgetWhere((entry) => entry.storeId === storeId);
  }

  /** A merchant changed (access flags, its record): forget the entries of its stores. */
  forgetMerchant(merchantId: number): void {
    this.forgetWhere((entry) => entry.merchantId === merchantId);
  }

  private forgetWhere(matches: (entry: ResolvedStore) => boolean): void {
    this.generation += 1;
    const tokens: string[] = [];
    for (const [token, entry] of this.entries.entries()) if (matches(entry)) tokens.push(token);
    for (const token of tokens) this.entries.delete(token);
  }

  /** Announcements are heard from now on: start caching, from empty. */
  activate(): void {
    this.clear();
    this.active = true;
  }

  /** Announcements may be lost from now on: read every request's credentials from PostgreSQL. */
  suspend(): void {
    this.active = false;
    this.clear();
  }

  get isActive(): boolean {
    return this.active;
  }
}
