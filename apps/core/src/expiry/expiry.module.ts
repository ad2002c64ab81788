import { Module } from '@nestjs/common';
import { TransactionsModule } from '../transactions/transactions.module';
import { ExpiryService } from './expiry.service';

@Module({
  imports: [TransactionsModule],
  providers: [ExpiryService],
  exports: [ExpiryService],
})
export class ExpiryModule {}
