import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { WebhookDelivery, WebhookEvent, WebhookEventStatus, WebhookMethod } from '@app/database';
import { queryRows } from '../common/sql';

/** An event a dispatcher holds the lease of. */
export interface ClaimedEvent {
  id: string;
  storeId: number;
  merchantId: number;
  payload: Record<string, unknown>;
  url: string;
  method: WebhookMethod;
  attempts: number;
  leaseToken: string;
}

/** One attempt's outcome, as the delivery log stores it. */
export interface AttemptRecord {
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  responsePrefix: string | null;
  error: string | null;
}

/** Where an event goes after an attempt. */
export type AttemptOutcome =
  | { status: 'delivered' }
  | { status: 'pending'; retryInSeconds: number }
  | { status: 'failed' }
  /** The dispatcher stopped mid-attempt: hand the event back untouched, to be sent again at once. */
  | { status: 'released' };

/**
 * Webhook outbox rows. The outbox is worked by the dispatcher for every merchant at once and read
 * by operators, so these queries go by event or transaction id (each tied to one store), not by
 * tenant; the merchant-facing side never reads them.
 */
@Injectable()
export class WebhookEventRepository {
  /**
   * Inserts a pending event and, in the same statement (one round trip fewer on every status
   * change), notifies `wakeChannel`, which PostgreSQL delivers on commit only.
   */
  async insert(
    manager: EntityManager,
    event: Pick<
      WebhookEvent,
      'id' | 'transactionId' | 'merchantId' | 'storeId' | 'payload' | 'url' | 'method'
    >,
    wakeChannel: string,
  ): Promise<void> {
    await manager.query(
      `WITH event AS (
         INSERT INTO webhook_events (id, transaction_id, merchant_id, store_id, payload, url, method, status, attempts, next_attempt_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', 0, now())
         RETURNING 1)
       SELECT pg_notify($8, '') FROM event`,
      [
        event.id,
        event.transactionId,
        event.merchantId,
        event.storeId,
        JSON.stringify(event.payload),
        event.url,
        event.method,
        wakeChannel,
      ],
    );
  }

  /**
   * Takes up to `limit` due events and leases them for `leaseMs`. SKIP LOCKED lets instances
   * claiming at the same moment take different rows; the lease keeps the rows theirs after this
   * statement commits, and its expiry hands them to another instance if this one dies.
   */
  async claimDue(
    manager: EntityManager,
    options: { limit: number; leaseMs: number; leaseToken: string; storeIds?: number[] },
  ): Promise<ClaimedEvent[]> {
    const parameters: unknown[] = [options.limit, options.leaseMs, options.leaseToken];
    let scope = '';
    if (options.storeIds) {
      parameters.push(options.storeIds);
      scope = `AND store_id = ANY($4::int[])`;
    }
    const rows = await queryRows<{
      id: string;
      store_id: number;
      merchant_id: number;
      payload: Record<string, unknown>;
      url: string;
      method: WebhookMethod;
      attempts: number;
    }>(
      manager,
      `WITH due AS (
         SELECT id FROM webhook_events
          WHERE status = 'pending' AND next_attempt_at <= now()
            AND (locked_until IS NULL OR locked_until <= now()) ${scope}
          ORDER BY next_attempt_at
          LIMIT $1
          FOR UPDATE SKIP LOCKED
       )
       UPDATE webhook_events e
          SET locked_until = now() + make_interval(secs => $2::double precision / 1000), lease_token = $3, updated_at = now()
         FROM due
        WHERE e.id = due.id
       RETURNING e.id, e.store_id, e.merchant_id, e.payload, e.url, e.method, e.attempts`,
      parameters,
    );
    return rows.map((row) => ({
      id: row.id,
      storeId: row.store_id,
      merchantId: row.merchant_id,
      payload: row.payload,
      url: row.url,
      method: row.method,
      attempts: row.attempts,
      leaseToken: options.leaseToken,
    }));
  }

  /**
   * Logs the attempt and moves the event on, in one transaction. The update only applies while
   * this dispatcher still holds the lease: if it ran out and another instance took the event, or
   * an operator resent it, that newer state wins. Returns whether the event was updated.
   */
  async recordAttempt(
    manager: EntityManager,
    event: ClaimedEvent,
    attempt: AttemptRecord,
    outcome: AttemptOutcome,
  ): Promise<boolean> {
    return manager.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO webhook_deliveries (event_id, attempted_at, url, status_code, duration_ms, response_prefix, error)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          event.id,
          attempt.attemptedAt,
          event.url,
          attempt.statusCode,
          attempt.durationMs,
          attempt.responsePrefix,
          attempt.error,
        ],
      );
      let assignments: string;
      const parameters: unknown[] = [event.id, event.leaseToken];
      switch (outcome.status) {
        case 'delivered':
          assignments = `status = 'delivered', attempts = attempts + 1, delivered_at = now()`;
          break;
        case 'failed':
          assignments = `status = 'failed', attempts = attempts + 1`;
          break;
        case 'pending':
          parameters.push(outcome.retryInSeconds);
          assignments = `attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => $3::double precision)`;
          break;
        case 'released':
          assignments = `next_attempt_at = now()`;
          break;
      }
      const rows = await queryRows<{ id: string }>(
        tx,
        `UPDATE webhook_events SET ${assignments}, locked_until = NULL, lease_token = NULL, updated_at = now()
          WHERE id = $1 AND lease_token = $2 AND status = 'pending'
          RETURNING id`,
        parameters,
      );
      return rows.length === 1;
    });
  }

  async findById(manager: EntityManager, id: string): Promise<WebhookEvent | null> {
    return manager.findOne(WebhookEvent, { where: { id } });
  }

  /** A transaction's events, oldest first. */
  async findForTransaction(manager: EntityManager, transactionId: string): Promise<WebhookEvent[]> {
    return manager.find(WebhookEvent, {
      where: { transactionId },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  /** Attempts of the given events, oldest first. */
  async deliveriesOf(manager: EntityManager, eventIds: string[]): Promise<WebhookDelivery[]> {
    if (eventIds.length === 0) return [];
    return manager
      .createQueryBuilder(WebhookDelivery, 'delivery')
      .where('delivery.eventId IN (:...eventIds)', { eventIds })
      .orderBy('delivery.id', 'ASC')
      .getMany();
  }

  /**
   * An operator's resend: a fresh retry schedule starting now, to the given target. Any lease is
   * dropped, so a result still arriving from an older attempt no longer changes the event.
   */
  async resetForResend(
    manager: EntityManager,
    id: string,
    target: { url: string; method: WebhookMethod },
  ): Promise<WebhookEventStatus | null> {
    const rows = await queryRows<{ status: WebhookEventStatus }>(
      manager,
      `UPDATE webhook_events
          SET status = 'pending', attempts = 0, next_attempt_at = now(), locked_until = NULL, lease_token = NULL,
              delivered_at = NULL, url = $2, method = $3, updated_at = now()
        WHERE id = $1
        RETURNING status`,
      [id, target.url, target.method],
    );
    return rows[0]?.status ?? null;
  }
}
