import { Injectable } from '@nestjs/common';
import { TransactionRepository } from '../transactions/transaction.repository';
import type { TransactionRecord } from '../transactions/transaction.record';

/** A merchant's payins: a payout id is not found here. */
@Injectable()
export class PayinRepository {
  constructor(private readonly transactions: TransactionRepository) {}

  findForMerchant(merchantId: number, transactionId: string): Promise<TransactionRecord | null> {
    return this.transactions.findForMerchant(merchantId, 'payin', transactionId);
  }
}
