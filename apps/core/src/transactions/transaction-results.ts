import type { TransactionStatus } from '@app/database';

/** What a create call answers: the id, and whether this call made it or found it (idempotent repeat). */
export interface CreatedTransaction {
  transactionId: string;
  created: boolean;
}

/** What a move answers: the status after it. */
export interface TransactionStatusResult {
  transactionId: string;
  status: TransactionStatus;
}
