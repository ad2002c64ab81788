import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { Store, Transaction, WebhookMethod } from '@app/database';
import { queryRows } from '../common/sql';
import { WebhookEventRepository } from './webhook-event.repository';
import { buildWebhookFields } from './webhook-payload';

/** pg_notify channel that wakes every dispatcher when an event commits. */
export const WEBHOOK_PENDING_CHANNEL = 'gateway_webhook_pending';

export interface WebhookTarget {
  url: string;
  method: WebhookMethod;
}

/** The store columns that name its default webhook target. */
export type StoreWebhookTarget = Pick<Store, 'id' | 'webhookUrl' | 'webhookMethod'>;

/**
 * The write side of the outbox (decisions.md section 5). Runs inside the caller's transaction,
 * so a status change and its notification commit together or not at all; nothing is sent here.
 */
@Injectable()
export class WebhookOutboxService {
  constructor(private readonly events: WebhookEventRepository) {}

  /**
   * Records a notification of `transaction` as it now stands, when it has somewhere to go:
   * its own webhookUrl, else its store's default (payouts, and payins created without one).
   * Returns the event id, or null when there is no URL.
   */
  async enqueue(
    manager: EntityManager,
    transaction: Transaction,
    store?: StoreWebhookTarget,
  ): Promise<string | null> {
    const target = await this.targetOf(manager, transaction, store);
    if (!target) return null;
    const id = randomUUID();
    await this.events.insert(
      manager,
      {
        id,
        transactionId: transaction.id,
        merchantId: transaction.merchantId,
        storeId: transaction.storeId,
        payload: { ...buildWebhookFields(id, transaction) },
        url: target.url,
        method: target.method,
      },
      // Delivered by PostgreSQL on commit only, so no dispatcher wakes for a rolled-back change.
      WEBHOOK_PENDING_CHANNEL,
    );
    return id;
  }

  /**
   * Where a notification of `transaction` goes today; an operator's resend asks this again.
   * `store` is the transaction's store row when the caller has already read it in this DB
   * transaction (a create has), which saves reading it again.
   */
  async targetOf(
    manager: EntityManager,
    transaction: Pick<Transaction, 'storeId' | 'merchantId' | 'webhookUrl' | 'webhookMethod'>,
    store?: StoreWebhookTarget,
  ): Promise<WebhookTarget | null> {
    if (transaction.webhookUrl)
      return { url: transaction.webhookUrl, method: normalizeMethod(transaction.webhookMethod) };
    if (store && store.id === transaction.storeId) {
      return store.webhookUrl
        ? { url: store.webhookUrl, method: normalizeMethod(store.webhookMethod) }
        : null;
    }
    const [row] = await queryRows<{
      webhook_url: string | null;
      webhook_method: WebhookMethod | null;
    }>(
      manager,
      `SELECT webhook_url, webhook_method FROM stores WHERE id = $1 AND merchant_id = $2`,
      [transaction.storeId, transaction.merchantId],
    );
    if (!row?.webhook_url) return null;
    return { url: row.webhook_url, method: normalizeMethod(row.webhook_method) };
  }
}

/** `post` unless `get` was asked for, in any case (decisions.md section 3). */
function normalizeMethod(method: string | null): WebhookMethod {
  return method?.toLowerCase() === 'get' ? 'get' : 'post';
}
