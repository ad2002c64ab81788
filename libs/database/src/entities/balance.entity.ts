import { Check, Column, Entity, Index, PrimaryColumn, UpdateDateColumn, JoinColumn, ManyToOne } from 'typeorm';
import { Store } from './store.entity';

/** One balance per store. The CHECK holds the never-below-zero invariant even against a bug. */
@Entity({ name: 'balances' })
@Check('balances_amount_non_negative', '"amount" >= 0')
export class Balance {
  @PrimaryColumn({ name: 'store_id', type: 'integer' })
  storeId: number;

  @ManyToOne(() => Store, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'store_id', foreignKeyConstraintName: 'balances_store_id_fkey' })
  store?: Store;

  @Index('balances_merchant_id_idx')
  @Column({ name: 'merchant_id', type: 'integer' })
  merchantId: number;

  @Column({ type: 'numeric', precision: 20, scale: 2, default: 0 })
  amount: string;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
