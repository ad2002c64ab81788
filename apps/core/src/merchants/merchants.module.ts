import { Module } from '@nestjs/common';
import { AdminCoreModule } from '../admin/admin-core.module';
import { MerchantsService } from './merchants.service';

@Module({
  imports: [AdminCoreModule],
  providers: [MerchantsService],
  exports: [MerchantsService],
})
export class MerchantsModule {}
