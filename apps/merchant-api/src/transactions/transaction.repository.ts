import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Transaction, TransactionType } from '@app/database';
import {
  TRANSACTION_RECORD_COLUMNS,
  TransactionRecord,
  toTransactionRecord,
} from './transaction.record';

/**
 * Reads a merchant's transactions. The merchant id and the type are part of every query: a
 * transaction of another merchant, or a payout id on a payin path, simply is not found.
 * PayinRepository and PayoutRepository fix the type.
 */
@Injectable()
export class TransactionRepository {
  constructor(private readonly dataSource: DataSource) {}

  async findForMerchant(
    merchantId: number,
    type: TransactionType,
    transactionId: string,
  ): Promise<TransactionRecord | null> {
    const row = await this.dataSource.getRepository(Transaction).findOne({
      select: TRANSACTION_RECORD_COLUMNS,
      where: { id: transactionId.toLowerCase(), merchantId, type },
    });
    return row ? toTransactionRecord(row) : null;
  }
}
