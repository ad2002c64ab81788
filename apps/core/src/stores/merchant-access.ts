import { HttpStatus } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { queryPreparedIn, Store } from '@app/database';
import { AppException, ErrorCode } from '@app/errors';
import { entityStatement, hydrate } from '../common/sql';

/** Which of a merchant's access flags a merchant call needs. */
export type MerchantAccess = 'payin' | 'payout';

const REFUSAL: Record<MerchantAccess, ErrorCode> = {
  payin: ErrorCode.ACCESS_PAYIN_DISABLED,
  payout: ErrorCode.ACCESS_PAYOUT_DISABLED,
};

const STORE_WITH_ACCESS = {
  payin: storeWithAccess('payin'),
  payout: storeWithAccess('payout'),
};

function storeWithAccess(access: MerchantAccess) {
  return entityStatement(
    `core.store-for-${access}.v1`,
    Store,
    (columns) => `SELECT ${columns('s')}, m.${access}_enabled AS access_enabled
                    FROM stores s LEFT JOIN merchants m ON m.id = s.merchant_id
                   WHERE s.id = $1`,
  );
}

/**
 * The store a merchant call acts for, read in the caller's DB transaction together with its
 * merchant's access flags; 404 without the store or its merchant, 403 when the flag is off.
 *
 * The merchant API checks the same flags first, from a cache that learns of an operator's change
 * a few milliseconds after it commits. This read is what makes the change final for every write
 * that reaches the core after the operator's reply, whatever that cache still holds.
 */
export async function storeForMerchantCall(
  manager: EntityManager,
  storeId: number,
  access: MerchantAccess,
): Promise<Store> {
  // One plain statement, prepared: every merchant write starts here, and TypeORM's find with a
  // relation cost more CPU than the query itself (docs/benchmarks.md).
  const [row] = await queryPreparedIn<Record<string, unknown> & { access_enabled: boolean | null }>(
    manager,
    STORE_WITH_ACCESS[access](manager),
    [storeId],
  );
  if (!row) throw new AppException(ErrorCode.STORE_NOT_FOUND, HttpStatus.NOT_FOUND);
  if (row.access_enabled === null)
    throw new AppException(ErrorCode.MERCHANT_NOT_FOUND, HttpStatus.NOT_FOUND);
  if (!row.access_enabled) throw new AppException(REFUSAL[access], HttpStatus.FORBIDDEN);
  return hydrate(manager, Store, row);
}
