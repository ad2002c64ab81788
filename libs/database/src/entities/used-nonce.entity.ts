import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** Replay protection without Redis: a nonce seen from a store, kept past the timestamp window. */
@Entity({ name: 'used_nonces' })
@Index('used_nonces_expires_at_idx', ['expiresAt'])
export class UsedNonce {
  @PrimaryColumn({ name: 'store_id', type: 'integer' })
  storeId: number;

  @PrimaryColumn({ type: 'varchar', length: 128 })
  nonce: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}
