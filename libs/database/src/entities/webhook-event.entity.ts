import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';
import { Store } from './store.entity';
import { Transaction } from './transaction.entity';

export const WEBHOOK_EVENT_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookEventStatus = (typeof WEBHOOK_EVENT_STATUSES)[number];
export type WebhookMethod = 'get' | 'post';

/**
 * The webhook outbox (decisions.md section 5): one row per notification, written in the same
 * database transaction as the status change it reports, then delivered by the dispatcher.
 * `payload` holds the notification fields without `signature`, which is computed at send time
 * with the store's current private token.
 */
@Entity({ name: 'webhook_events' })
@Index('webhook_events_due_idx', ['nextAttemptAt'], { where: `"status" = 'pending'` })
@Index('webhook_events_transaction_idx', ['transactionId', 'createdAt'])
@Check('webhook_events_status_valid', `"status" IN ('pending', 'delivered', 'failed')`)
@Check('webhook_events_method_valid', `"method" IN ('get', 'post')`)
export class WebhookEvent {
  /** The `eventId` of the notification and its `x-webhook-id` / `webhook-id` headers. */
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'transaction_id', type: 'uuid' })
  transactionId: string;

  @ManyToOne(() => Transaction, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'transaction_id',
    foreignKeyConstraintName: 'webhook_events_transaction_id_fkey',
  })
  transaction?: Transaction;

  @Column({ name: 'merchant_id', type: 'integer' })
  merchantId: number;

  @Column({ name: 'store_id', type: 'integer' })
  storeId: number;

  @ManyToOne(() => Store, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'store_id', foreignKeyConstraintName: 'webhook_events_store_id_fkey' })
  store?: Store;

  @Column({ type: 'jsonb' })
  payload: Record<string, unknown>;

  @Column({ type: 'text' })
  url: string;

  @Column({ type: 'varchar', length: 4 })
  method: WebhookMethod;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: WebhookEventStatus;

  /** Attempts of the current schedule; an operator's resend starts a new schedule at 0. */
  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz' })
  nextAttemptAt: Date;

  /** A dispatcher's lease: until then no other instance claims the row. Expiry means it crashed. */
  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true })
  lockedUntil: Date | null;

  /** Random per claim, so a dispatcher whose lease ran out cannot overwrite the next one's result. */
  @Column({ name: 'lease_token', type: 'uuid', nullable: true })
  leaseToken: string | null;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  deliveredAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
