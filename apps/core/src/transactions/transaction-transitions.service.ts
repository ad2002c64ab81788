import { HttpStatus, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Transaction, TransactionStatus, TransactionType } from '@app/database';
import { AppException, ErrorCode } from '@app/errors';
import { money, settlementAmount } from '../common/money';
import { hydrate, queryRows } from '../common/sql';
import { LedgerService } from '../ledger/ledger.service';
import { MerchantAccess, storeForMerchantCall } from '../stores/merchant-access';
import type { StoreWebhookTarget } from '../webhooks/webhook-outbox.service';
import { TransactionHistoryService } from './transaction-history.service';
import { balanceFlowsOf, nextStatus, TransitionAction } from './transaction-state';

/** Which transactions a caller may touch: a store's own of one type, or (operator, payer) any by id. */
export interface TransactionScope {
  type?: TransactionType;
  storeId?: number;
  /** A merchant's call: its access flag is checked (403) before the transaction is looked up. */
  access?: MerchantAccess;
}

/**
 * Applies state-machine moves: lock the row, ask transaction-state.ts, write the new status,
 * record it through TransactionHistoryService and book its balance effects, all in the caller's
 * DB transaction. Concurrent moves on one transaction queue on the row lock, so exactly one of
 * two racing moves wins and the other sees the new status and is refused.
 */
@Injectable()
export class TransactionTransitionsService {
  constructor(
    private readonly history: TransactionHistoryService,
    private readonly ledger: LedgerService,
  ) {}

  /**
   * Locks the transaction for update; outside the scope it does not exist (404). A merchant's
   * scope first needs its access flag (403).
   */
  async lock(manager: EntityManager, id: string, scope: TransactionScope): Promise<Transaction> {
    if (scope.access && scope.storeId !== undefined) {
      await storeForMerchantCall(manager, scope.storeId, scope.access);
    }
    const [row] = await queryRows<Record<string, unknown>>(
      manager,
      'SELECT * FROM transactions WHERE id = $1 FOR UPDATE',
      [id],
    );
    const transaction = row ? hydrate(manager, Transaction, row) : null;
    if (
      !transaction ||
      (scope.type && transaction.type !== scope.type) ||
      (scope.storeId !== undefined && transaction.storeId !== scope.storeId)
    ) {
      throw new AppException(ErrorCode.TRANSACTION_NOT_FOUND, HttpStatus.NOT_FOUND);
    }
    return transaction;
  }

  /**
   * Moves a locked transaction. A move the state machine forbids is 409
   * ERROR_TRANSACTION_STATUS_CONFLICT and changes nothing. `columns` are written with the status
   * (a proof's file, for instance).
   */
  async apply(
    manager: EntityManager,
    transaction: Transaction,
    action: TransitionAction,
    actor: string,
    columns: Partial<Transaction> = {},
  ): Promise<Transaction> {
    const from = transaction.status;
    const to = nextStatus(transaction, action);
    if (!to) {
      throw new AppException(ErrorCode.TRANSACTION_STATUS_CONFLICT, HttpStatus.CONFLICT, {
        status: from,
        action: describe(action),
      });
    }
    const set: Partial<Transaction> = { ...columns, status: to };
    if (to === 'proof_requested') set.proofRequested = true;
    const result = await manager
      .createQueryBuilder()
      .update(Transaction)
      .set(set)
      .where('id = :id', { id: transaction.id })
      .returning('*')
      .updateEntity(false)
      .execute();
    const updated = hydrate(manager, Transaction, (result.raw as Record<string, unknown>[])[0]);
    await this.history.record(manager, { transaction: updated, from, actor });
    await this.book(manager, updated, from, to);
    return updated;
  }

  /**
   * Records a freshly inserted transaction (from null) and books what its creation moves: a
   * payout's debit, which refuses an insufficient balance with 409 and so rolls the create back.
   * `store`, the store row the create read, names the webhook target without another read.
   */
  async created(
    manager: EntityManager,
    transaction: Transaction,
    actor: string,
    store?: StoreWebhookTarget,
  ): Promise<void> {
    await this.history.record(manager, { transaction, from: null, actor, store });
    await this.book(manager, transaction, null, transaction.status);
  }

  /** The ledger side of a move (decisions.md section 4, amounts per docs/money.md). */
  private async book(
    manager: EntityManager,
    transaction: Transaction,
    from: TransactionStatus | null,
    to: TransactionStatus,
  ): Promise<void> {
    const settled = settlementAmount(transaction.amount, transaction.exchangeRate);
    for (const flow of balanceFlowsOf(transaction.type, transaction.isTest, from, to)) {
      const amount =
        flow === 'payin' || flow === 'payout_refund'
          ? settled
          : flow === 'payout'
            ? settled.negated()
            : money(transaction.feeAmount).negated();
      if (amount.isZero()) continue;
      await this.ledger.move(manager, {
        storeId: transaction.storeId,
        merchantId: transaction.merchantId,
        flow,
        amount,
        transactionId: transaction.id,
      });
    }
  }
}

function describe(action: TransitionAction): string {
  return action.kind === 'operator' ? `operator:${action.to}` : action.kind;
}
