import { HttpStatus, Injectable } from '@nestjs/common';
import type { TransactionType } from '@app/database';
import type { AuthenticatedStore } from '@app/auth';
import { AppException, ErrorCode } from '@app/errors';
import { CacheKeys } from '../cache/cache-keys';
import { ReadCache } from '../cache/read-cache.service';
import {
  packTransactionRecord,
  TransactionRecord,
  unpackTransactionRecord,
} from './transaction.record';

type Loader = () => Promise<TransactionRecord | null>;

/**
 * How the payin and payout endpoints read a transaction: through the cache for reads, straight
 * from the database after a mutation, and 404 ERROR_TRANSACTION_NOT_FOUND for anything that is
 * not this merchant's transaction of this type (decisions.md section 2: never 403).
 */
@Injectable()
export class TransactionReader {
  constructor(private readonly cache: ReadCache) {}

  /** The stored transaction, cached in its packed form. */
  async find(
    store: AuthenticatedStore,
    type: TransactionType,
    transactionId: string,
    load: Loader,
  ): Promise<TransactionRecord> {
    const packed = await this.cache.readThrough(CacheKeys.transaction(transactionId), async () => {
      const record = await load();
      return record && packTransactionRecord(record);
    });
    return this.owned(store, type, packed && unpackTransactionRecord(packed));
  }

  /**
   * The stored transaction as it is now, after this request changed it: the cached entry is
   * dropped first, so this response and every later read show the change.
   */
  async findAfterChange(
    store: AuthenticatedStore,
    type: TransactionType,
    transactionId: string,
    load: Loader,
  ): Promise<TransactionRecord> {
    await this.cache.invalidate(CacheKeys.transaction(transactionId));
    return this.owned(store, type, await load());
  }

  private owned(
    store: AuthenticatedStore,
    type: TransactionType,
    record: TransactionRecord | null,
  ): TransactionRecord {
    // The cache is keyed by id alone; the owner check keeps another merchant's cached entry out.
    if (!record || record.merchantId !== store.merchantId || record.type !== type) {
      throw new AppException(ErrorCode.TRANSACTION_NOT_FOUND, HttpStatus.NOT_FOUND);
    }
    return record;
  }
}
