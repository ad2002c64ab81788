import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { WebhookEvent } from './webhook-event.entity';

/** One delivery attempt of a webhook event: the operators' delivery log. Append-only. */
@Entity({ name: 'webhook_deliveries' })
@Index('webhook_deliveries_event_idx', ['eventId', 'id'])
export class WebhookDelivery {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'event_id', type: 'uuid' })
  eventId: string;

  @ManyToOne(() => WebhookEvent, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id', foreignKeyConstraintName: 'webhook_deliveries_event_id_fkey' })
  event?: WebhookEvent;

  @Column({ name: 'attempted_at', type: 'timestamptz' })
  attemptedAt: Date;

  @Column({ type: 'text' })
  url: string;

  /** Null when no HTTP answer came back (refused, timed out, blocked address). */
  @Column({ name: 'status_code', type: 'integer', nullable: true })
  statusCode: number | null;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs: number;

  /** The first 256 characters of the receiver's answer. */
  @Column({ name: 'response_prefix', type: 'varchar', length: 256, nullable: true })
  responsePrefix: string | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  error: string | null;
}
