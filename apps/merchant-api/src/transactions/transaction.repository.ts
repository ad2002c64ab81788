import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PreparedStatement, queryPrepared, Transaction, TransactionType } from '@app/database';
import {
  TRANSACTION_RECORD_COLUMNS,
  TransactionRecord,
  toTransactionRecord,
} from './transaction.record';

/**
 * Reads a merchant's transactions: a transaction of another merchant, or a payout id on a payin
 * path, simply is not found. PayinRepository and PayoutRepository fix the type.
 */
@Injectable()
export class TransactionRepository {
  /**
   * Built once from the entity's metadata: each column aliased to its property, so the driver's
   * row already has the entity's shape. Every create and every cache miss runs it: TypeORM's
   * find built the same statement anew each time, and PostgreSQL planned it anew each time
   * (docs/benchmarks.md). Prepared, it is planned once per connection.
   */
  private readonly find: PreparedStatement;

  constructor(private readonly dataSource: DataSource) {
    const metadata = dataSource.getMetadata(Transaction);
    const columns = TRANSACTION_RECORD_COLUMNS.map((property) => {
      const column = metadata.findColumnWithPropertyName(property);
      if (!column) throw new Error(`transactions has no column for ${property}`);
      return `"${column.databaseName}" AS "${property}"`;
    });
    // By primary key alone, with the owner and the type checked on the row found. With them in
    // the WHERE clause as well, a table without statistics yet (a fresh database, before its
    // first autoanalyze) gave the merchant_id index the same cost as the primary key, and
    // PostgreSQL read every transaction of the merchant to find one (docs/benchmarks.md).
    this.find = {
      name: 'merchant-api.transaction.v2',
      text: `SELECT ${columns.join(', ')} FROM transactions WHERE id = $1`,
    };
  }

  async findForMerchant(
    merchantId: number,
    type: TransactionType,
    transactionId: string,
  ): Promise<TransactionRecord | null> {
    const [row] = await queryPrepared<Transaction>(this.dataSource, this.find, [
      transactionId.toLowerCase(),
    ]);
    return row && row.merchantId === merchantId && row.type === type
      ? toTransactionRecord(row)
      : null;
  }
}
