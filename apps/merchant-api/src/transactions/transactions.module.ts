import { Module } from '@nestjs/common';
import { TransactionPayloadMapper } from './transaction-payload.mapper';
import { TransactionReader } from './transaction-reader.service';
import { TransactionRepository } from './transaction.repository';

/** What the payin and payout features share: the stored-transaction reads and the one payload mapper. */
@Module({
  providers: [TransactionRepository, TransactionReader, TransactionPayloadMapper],
  exports: [TransactionRepository, TransactionReader, TransactionPayloadMapper],
})
export class TransactionsModule {}
