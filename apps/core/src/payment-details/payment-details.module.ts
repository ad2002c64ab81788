import { Module } from '@nestjs/common';
import { AdminCoreModule } from '../admin/admin-core.module';
import { PaymentDetailsService } from './payment-details.service';

@Module({
  imports: [AdminCoreModule],
  providers: [PaymentDetailsService],
  exports: [PaymentDetailsService],
})
export class PaymentDetailsModule {}
