import { Module } from '@nestjs/common';
import { MerchantsModule } from '../merchants/merchants.module';
import { PaymentDetailsModule } from '../payment-details/payment-details.module';
import { StoresModule } from '../stores/stores.module';
import { TransactionsModule } from '../transactions/transactions.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { AdminAuditController } from './admin-audit.controller';
import { AdminCoreModule } from './admin-core.module';
import { AdminMerchantsController } from './admin-merchants.controller';
import { AdminPaymentDetailsController } from './admin-payment-details.controller';
import { AdminStoresController } from './admin-stores.controller';
import { AdminTransactionsController } from './admin-transactions.controller';
import { AdminTransactionsService } from './admin-transactions.service';

/** The operator API of decisions.md section 6 under /admin/v1 (webhook resend lives with webhooks). */
@Module({
  imports: [
    AdminCoreModule,
    MerchantsModule,
    StoresModule,
    PaymentDetailsModule,
    TransactionsModule,
    WebhooksModule,
  ],
  controllers: [
    AdminMerchantsController,
    AdminStoresController,
    AdminPaymentDetailsController,
    AdminTransactionsController,
    AdminAuditController,
  ],
  providers: [AdminTransactionsService],
  exports: [AdminTransactionsService],
})
export class AdminModule {}
