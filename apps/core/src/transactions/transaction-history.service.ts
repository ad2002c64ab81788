import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { PreparedStatement, queryPreparedIn, Transaction, TransactionStatus } from '@app/database';
import { StoreWebhookTarget, WebhookOutboxService } from '../webhooks/webhook-outbox.service';

export interface StatusChange {
  /** The transaction as it is after the change (status already set, in this DB transaction). */
  transaction: Transaction;
  /** Null for the creation. */
  from: TransactionStatus | null;
  /** `merchant`, `payer`, `system` or `operator:<name>`. */
  actor: string;
  /** The transaction's store row, when the caller has read it in this DB transaction. */
  store?: StoreWebhookTarget;
}

const RECORD_CHANGE: PreparedStatement = {
  name: 'core.record-status-change.v1',
  text: `WITH change AS (
           INSERT INTO transaction_status_changes (transaction_id, from_status, to_status, actor)
           VALUES ($1, $2, $3, $4)
           RETURNING transaction_id)
         SELECT pg_notify('gateway_transaction_changed', transaction_id::text) FROM change`,
};

/**
 * THE single point through which every creation and every status change of a transaction
 * passes, inside the DB transaction that makes the change. It appends the history row and
 * announces the change; anything else that must happen atomically with every status change
 * (the webhook outbox) belongs here too, so that no path can skip it.
 */
@Injectable()
export class TransactionHistoryService {
  constructor(private readonly webhooks: WebhookOutboxService) {}

  async record(manager: EntityManager, change: StatusChange): Promise<void> {
    // The history row and the announcement in one prepared statement: a status change is a
    // handful of round trips to PostgreSQL, each of which costs more than the statement itself.
    // The announcement is delivered on commit only; the merchant API drops its cached copy of
    // the transaction.
    await queryPreparedIn(manager, RECORD_CHANGE, [
      change.transaction.id,
      change.from,
      change.transaction.status,
      change.actor,
    ]);
    // The merchant's notification, in the outbox of this same DB transaction (decisions.md section 5).
    await this.webhooks.enqueue(manager, change.transaction, change.store);
  }
}
