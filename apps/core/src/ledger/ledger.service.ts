import { HttpStatus, Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EntityManager } from 'typeorm';
import { BalanceChange, BalanceFlow } from '@app/database';
import { AppException, ErrorCode } from '@app/errors';
import { formatMoney, money } from '../common/money';
import { hydrate, queryRows } from '../common/sql';

export interface BalanceMovement {
  storeId: number;
  merchantId: number;
  flow: BalanceFlow;
  /** Signed: credit positive, debit negative. Never zero. */
  amount: Decimal;
  transactionId?: string | null;
  comment?: string | null;
}

/**
 * The only writer of balances and balance changes. Every movement runs inside the caller's
 * transaction, so it commits or rolls back with the status change that causes it.
 *
 * Locks are always taken in the order balance row, then merchant row: the conditional UPDATE of
 * the balance serialises movers of one store and refuses to go below zero in the same
 * statement; the UPDATE of the merchant's counter hands out the next gap-free `seq`.
 */
@Injectable()
export class LedgerService {
  /** Creates the zero balance of a new store (same transaction as the store). */
  async openBalance(manager: EntityManager, storeId: number, merchantId: number): Promise<void> {
    await manager.query(
      'INSERT INTO balances (store_id, merchant_id, amount) VALUES ($1, $2, 0) ON CONFLICT (store_id) DO NOTHING',
      [storeId, merchantId],
    );
  }

  /** Applies one movement; a debit beyond the balance is 409 ERROR_INSUFFICIENT_BALANCE and writes nothing. */
  async move(manager: EntityManager, movement: BalanceMovement): Promise<BalanceChange> {
    if (movement.amount.isZero()) throw new Error('a balance movement cannot be zero');
    const delta = formatMoney(movement.amount);

    let rows = await this.applyDelta(manager, movement.storeId, delta);
    if (rows.length === 0) {
      // Either the debit does not fit or the store has no balance row yet (created before this
      // code opened one); open it and retry once, so the second answer is the true one.
      await this.openBalance(manager, movement.storeId, movement.merchantId);
      rows = await this.applyDelta(manager, movement.storeId, delta);
    }
    if (rows.length === 0)
      throw new AppException(ErrorCode.INSUFFICIENT_BALANCE, HttpStatus.CONFLICT);

    const after = money(rows[0].amount);
    const before = after.minus(movement.amount);
    // The next seq, the change itself and its announcement in one statement: the store's
    // balance row stays locked until commit, so every round trip here held up the next mover.
    const [row] = await queryRows<Record<string, unknown>>(
      manager,
      `WITH counter AS (
         UPDATE merchants SET balance_change_count = balance_change_count + 1
          WHERE id = $1
         RETURNING balance_change_count AS seq),
       change AS (
         INSERT INTO balance_changes (merchant_id, seq, store_id, transaction_id, flow, amount,
                                      balance_before, balance_after, comment)
         SELECT $1, counter.seq, $2, $3, $4, $5, $6, $7, $8 FROM counter
         RETURNING *)
       SELECT change.*, pg_notify('gateway_balance_changed', $1::text) FROM change`,
      [
        movement.merchantId,
        movement.storeId,
        movement.transactionId ?? null,
        movement.flow,
        delta,
        formatMoney(before),
        formatMoney(after),
        movement.comment ?? null,
      ],
    );
    if (!row)
      throw new Error(
        `merchant ${movement.merchantId} of store ${movement.storeId} does not exist`,
      );
    return hydrate(manager, BalanceChange, row);
  }

  async balanceOf(manager: EntityManager, storeId: number): Promise<Decimal> {
    const rows = (await manager.query(
      'SELECT amount::text AS amount FROM balances WHERE store_id = $1',
      [storeId],
    )) as Array<{ amount: string }>;
    return money(rows[0]?.amount ?? 0);
  }

  private async applyDelta(
    manager: EntityManager,
    storeId: number,
    delta: string,
  ): Promise<Array<{ amount: string }>> {
    return queryRows<{ amount: string }>(
      manager,
      `UPDATE balances SET amount = amount + $2::numeric, updated_at = now()
        WHERE store_id = $1 AND amount + $2::numeric >= 0
        RETURNING amount::text AS amount`,
      [storeId, delta],
    );
  }
}
