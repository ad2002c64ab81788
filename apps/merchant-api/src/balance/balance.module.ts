import { Module } from '@nestjs/common';
import { AuthModule } from '@app/auth';
import { BalanceController } from './balance.controller';
import { BalanceRepository } from './balance.repository';
import { BalanceService } from './balance.service';

@Module({
  imports: [AuthModule],
  controllers: [BalanceController],
  providers: [BalanceRepository, BalanceService],
  exports: [BalanceService],
})
export class BalanceModule {}
