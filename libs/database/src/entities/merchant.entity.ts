import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'merchants' })
export class Merchant {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ name: 'payin_enabled', type: 'boolean', default: true })
  payinEnabled: boolean;

  @Column({ name: 'payout_enabled', type: 'boolean', default: true })
  payoutEnabled: boolean;

  @Column({ name: 'account_enabled', type: 'boolean', default: true })
  accountEnabled: boolean;

  /**
   * Number of balance-change records of all this merchant's stores. Each record takes the next
   * `seq`, in the same transaction, so seqs are 1..count with no gaps: the balance list pages by
   * seq range instead of OFFSET, and its total is this column instead of COUNT(*).
   */
  @Column({ name: 'balance_change_count', type: 'bigint', default: 0 })
  balanceChangeCount: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
