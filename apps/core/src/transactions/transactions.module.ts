import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger/ledger.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { TransactionHistoryService } from './transaction-history.service';
import { TransactionTransitionsService } from './transaction-transitions.service';

@Module({
  imports: [LedgerModule, WebhooksModule],
  providers: [TransactionHistoryService, TransactionTransitionsService],
  exports: [TransactionHistoryService, TransactionTransitionsService],
})
export class TransactionsModule {}
