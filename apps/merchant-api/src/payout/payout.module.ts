import { Module } from '@nestjs/common';
import { AuthModule } from '@app/auth';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { TransactionsModule } from '../transactions/transactions.module';
import { PayoutController } from './payout.controller';
import { PayoutRepository } from './payout.repository';
import { PayoutService } from './payout.service';

@Module({
  imports: [AuthModule, TransactionsModule, IdempotencyModule],
  controllers: [PayoutController],
  providers: [PayoutRepository, PayoutService],
  exports: [PayoutService],
})
export class PayoutModule {}
