import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, JoinColumn, ManyToOne } from 'typeorm';
import { Transaction } from './transaction.entity';

/** History of a transaction's status: from, to, by whom, when. Append-only. */
@Entity({ name: 'transaction_status_changes' })
@Index('transaction_status_changes_transaction_idx', ['transactionId', 'id'])
export class TransactionStatusChange {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'transaction_id', type: 'uuid' })
  transactionId: string;

  @ManyToOne(() => Transaction, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'transaction_id', foreignKeyConstraintName: 'transaction_status_changes_transaction_id_fkey' })
  transaction?: Transaction;

  /** Null for the creation. */
  @Column({ name: 'from_status', type: 'varchar', length: 20, nullable: true })
  fromStatus: string | null;

  @Column({ name: 'to_status', type: 'varchar', length: 20 })
  toStatus: string;

  /** `merchant`, `payer`, `system`, or `operator:<name>`. */
  @Column({ type: 'varchar', length: 100 })
  actor: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
