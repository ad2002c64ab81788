import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** The merchant API's own bookkeeping for the `Idempotency-Key` header (decisions.md section 3). */
@Entity({ name: 'idempotency_keys' })
@Index('idempotency_keys_expires_at_idx', ['expiresAt'])
export class IdempotencyKey {
  @PrimaryColumn({ name: 'store_id', type: 'integer' })
  storeId: number;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  key: string;

  /** Which endpoint it was used on: a key is scoped to the store and the route. */
  @Column({ type: 'varchar', length: 64 })
  route: string;

  @Column({ name: 'request_hash', type: 'varchar', length: 64 })
  requestHash: string;

  /** Null while the first request is still running. */
  @Column({ name: 'response_status', type: 'integer', nullable: true })
  responseStatus: number | null;

  @Column({ name: 'response_body', type: 'jsonb', nullable: true })
  responseBody: unknown;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}
