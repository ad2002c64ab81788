import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { Merchant } from './merchant.entity';

/** Receiving details in the pool that payins draw from. */
@Entity({ name: 'payment_details' })
@Check(
  'payment_details_limits_non_negative',
  '("max_pending" IS NULL OR "max_pending" >= 0) AND ("min_amount" IS NULL OR "min_amount" >= 0) AND ("max_amount" IS NULL OR "max_amount" >= 0)',
)
@Check('payment_details_amount_range', '"min_amount" IS NULL OR "max_amount" IS NULL OR "min_amount" <= "max_amount"')
export class PaymentDetail {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'card_name', type: 'varchar', length: 255, nullable: true })
  cardName: string | null;

  @Column({ name: 'bank_name', type: 'varchar', length: 255, nullable: true })
  bankName: string | null;

  @Column({ name: 'card_number_enc', type: 'text', nullable: true })
  cardNumberEnc: string | null;

  @Column({ name: 'card_number_masked', type: 'varchar', length: 32, nullable: true })
  cardNumberMasked: string | null;

  @Column({ name: 'phone_number', type: 'varchar', length: 64, nullable: true })
  phoneNumber: string | null;

  @Column({ name: 'qr_code', type: 'text', nullable: true })
  qrCode: string | null;

  @Column({ name: 'account_number', type: 'varchar', length: 64, nullable: true })
  accountNumber: string | null;

  @Column({ name: 'iban_number', type: 'varchar', length: 64, nullable: true })
  ibanNumber: string | null;

  @Column({ name: 'min_amount', type: 'numeric', precision: 20, scale: 2, nullable: true })
  minAmount: string | null;

  @Column({ name: 'max_amount', type: 'numeric', precision: 20, scale: 2, nullable: true })
  maxAmount: string | null;

  /** At most this many pending payins on the detail at once; null: no limit. */
  @Column({ name: 'max_pending', type: 'integer', nullable: true })
  maxPending: number | null;

  /** Set: only this merchant's payins draw it, and that merchant draws only from its own. Null: the shared pool. */
  @Index('payment_details_merchant_id_idx', { where: '"merchant_id" IS NOT NULL' })
  @Column({ name: 'merchant_id', type: 'integer', nullable: true })
  merchantId: number | null;

  @ManyToOne(() => Merchant, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'merchant_id', foreignKeyConstraintName: 'payment_details_merchant_id_fkey' })
  merchant?: Merchant;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  @Column({ name: 'last_assigned_at', type: 'timestamptz', nullable: true })
  lastAssignedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
