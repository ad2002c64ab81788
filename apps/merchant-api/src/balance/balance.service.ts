import { randomUUID } from 'node:crypto';
import { HttpStatus, Injectable } from '@nestjs/common';
import type { AuthenticatedStore } from '@app/auth';
import { AppException, ErrorCode } from '@app/errors';
import { CacheKeys } from '../cache/cache-keys';
import { ReadCache } from '../cache/read-cache.service';
import { BalanceChangesSlice, BalanceRepository } from './balance.repository';
import { DEFAULT_LIMIT, DEFAULT_PAGE } from './dto/balance-changes.query.dto';

export interface BalanceChangesPage {
  /** The page's records as JSON text, as PostgreSQL wrote them (BalanceRepository). */
  items: string;
  total: number;
  page: number;
  limit: number;
  totalPages: number;
}

/**
 * The 200 answer of merchant-api.md 4.8 as JSON text, fields in the contract's order. The
 * records already are JSON text, so only the envelope around them is written here: parsing and
 * serializing a hundred records again was most of a balance page's CPU (docs/benchmarks.md).
 */
export function balancePageBody({
  items,
  total,
  page,
  limit,
  totalPages,
}: BalanceChangesPage): string {
  return `{"message":"SUCCESS","data":{"items":${items},"total":${total},"page":${page},"limit":${limit},"totalPages":${totalPages}}}`;
}

@Injectable()
export class BalanceService {
  constructor(
    private readonly repository: BalanceRepository,
    private readonly cache: ReadCache,
  ) {}

  /**
   * merchant-api.md 4.8 for all stores of the merchant. Pages are cached under the merchant's
   * balance version, which the core's `gateway_balance_changed` notification drops, from their
   * second read on.
   */
  async list(
    store: AuthenticatedStore,
    query: { page?: number; limit?: number },
  ): Promise<BalanceChangesPage> {
    const page = query.page ?? DEFAULT_PAGE;
    const limit = query.limit ?? DEFAULT_LIMIT;
    const versionKey = CacheKeys.balanceVersion(store.merchantId);
    const stamp = this.cache.stamp();
    let version = await this.cache.get<string>(versionKey);
    if (!version) {
      version = randomUUID();
      await this.cache.set(versionKey, version, { key: versionKey, stamp });
    }
    // Most pages of a long ledger are read once: cached from their second read (ReadCache).
    const slice = await this.cache.readThrough<BalanceChangesSlice>(
      CacheKeys.balancePage(store.merchantId, version, page, limit),
      () => this.repository.findPageForMerchant(store.merchantId, page, limit),
      versionKey,
      'second-miss',
    );
    if (!slice) throw new AppException(ErrorCode.MERCHANT_NOT_FOUND, HttpStatus.NOT_FOUND);
    return {
      items: slice.items,
      total: slice.total,
      page,
      limit,
      totalPages: Math.ceil(slice.total / limit),
    };
  }
}
