import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn, JoinColumn, ManyToOne } from 'typeorm';
import { Merchant } from './merchant.entity';

@Entity({ name: 'stores' })
@Check('stores_payin_fee_percent_range', '"payin_fee_percent" >= 0 AND "payin_fee_percent" < 100')
@Check('stores_exchange_rate_positive', '"exchange_rate" > 0')
export class Store {
  @PrimaryGeneratedColumn()
  id: number;

  @Index('stores_merchant_id_idx')
  @Column({ name: 'merchant_id', type: 'integer' })
  merchantId: number;

  @ManyToOne(() => Merchant, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'merchant_id', foreignKeyConstraintName: 'stores_merchant_id_fkey' })
  merchant?: Merchant;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Index('stores_public_token_key', { unique: true })
  @Column({ name: 'public_token', type: 'varchar', length: 100 })
  publicToken: string;

  /** AES-256-GCM sealed (FieldCipher): it must be read back to verify signatures. */
  @Column({ name: 'private_token_enc', type: 'text' })
  privateTokenEnc: string;

  /** Standard Webhooks secret (`whsec_...`), sealed like the private token. */
  @Column({ name: 'webhook_secret_enc', type: 'text', nullable: true })
  webhookSecretEnc: string | null;

  @Column({ name: 'webhook_url', type: 'text', nullable: true })
  webhookUrl: string | null;

  @Column({ name: 'webhook_method', type: 'varchar', length: 4, nullable: true })
  webhookMethod: 'get' | 'post' | null;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  @Column({ name: 'exchange_rate', type: 'numeric', precision: 18, scale: 8, default: 1 })
  exchangeRate: string;

  @Column({ name: 'payin_fee_percent', type: 'numeric', precision: 5, scale: 2, default: 0 })
  payinFeePercent: string;

  /** Payin lifetime; null means the PAYIN_TTL_SECONDS default. */
  @Column({ name: 'payin_ttl_seconds', type: 'integer', nullable: true })
  payinTtlSeconds: number | null;

  @Column({ name: 'require_replay_protection', type: 'boolean', default: false })
  requireReplayProtection: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
