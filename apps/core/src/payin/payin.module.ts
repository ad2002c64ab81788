import { Module } from '@nestjs/common';
import { PaymentDetailsModule } from '../payment-details/payment-details.module';
import { ProofModule } from '../proof/proof.module';
import { TransactionsModule } from '../transactions/transactions.module';
import { PayinController } from './payin.controller';
import { PayinService } from './payin.service';

/** Payins: the core API for the merchant API, and PayinService for the payment page. */
@Module({
  imports: [PaymentDetailsModule, ProofModule, TransactionsModule],
  controllers: [PayinController],
  providers: [PayinService],
  exports: [PayinService],
})
export class PayinModule {}
