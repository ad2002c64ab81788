import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn, JoinColumn, ManyToOne } from 'typeorm';
import { Store } from './store.entity';

export const BALANCE_FLOWS = ['payin', 'payin_fee', 'payout', 'payout_refund', 'adjustment'] as const;
export type BalanceFlow = (typeof BALANCE_FLOWS)[number];

/** Append-only ledger record: one per balance movement (decisions.md section 4). */
@Entity({ name: 'balance_changes' })
@Index('balance_changes_merchant_seq_key', ['merchantId', 'seq'], { unique: true })
@Index('balance_changes_store_id_idx', ['storeId', 'id'])
@Check('balance_changes_chain', '"balance_after" = "balance_before" + "amount"')
@Check('balance_changes_after_non_negative', '"balance_after" >= 0')
@Check('balance_changes_amount_non_zero', '"amount" <> 0')
export class BalanceChange {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'merchant_id', type: 'integer' })
  merchantId: number;

  /** 1..N per merchant without gaps; see Merchant.balanceChangeCount. */
  @Column({ type: 'bigint' })
  seq: string;

  @Column({ name: 'store_id', type: 'integer' })
  storeId: number;

  @ManyToOne(() => Store, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'store_id', foreignKeyConstraintName: 'balance_changes_store_id_fkey' })
  store?: Store;

  @Index('balance_changes_transaction_id_idx')
  @Column({ name: 'transaction_id', type: 'uuid', nullable: true })
  transactionId: string | null;

  @Column({ type: 'varchar', length: 32 })
  flow: BalanceFlow;

  @Column({ type: 'numeric', precision: 20, scale: 2 })
  amount: string;

  @Column({ name: 'balance_before', type: 'numeric', precision: 20, scale: 2 })
  balanceBefore: string;

  @Column({ name: 'balance_after', type: 'numeric', precision: 20, scale: 2 })
  balanceAfter: string;

  @Column({ type: 'text', nullable: true })
  comment: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
