import { Module } from '@nestjs/common';
import { AdminCoreModule } from '../admin/admin-core.module';
import { LedgerModule } from '../ledger/ledger.module';
import { StoresService } from './stores.service';

@Module({
  imports: [AdminCoreModule, LedgerModule],
  providers: [StoresService],
  exports: [StoresService],
})
export class StoresModule {}
