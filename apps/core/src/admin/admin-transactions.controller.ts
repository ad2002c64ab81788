import {
  Body,
  Controller,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Post,
  UseGuards,
} from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { TransactionStatus } from '@app/database';
import { TransactionIdPipe } from '../common/params';
import { TransactionStatusResult } from '../transactions/transaction-results';
import { AdminActor, AdminAuthGuard } from './admin-auth.guard';
import { AdminTransactionsService, AdminTransactionView } from './admin-transactions.service';
import { SetTransactionStatusDto } from './dto/transaction.dto';

@ApiTags('admin')
@ApiBearerAuth('admin')
@UseGuards(AdminAuthGuard)
@Controller('admin/v1/transactions')
export class AdminTransactionsController {
  constructor(private readonly transactions: AdminTransactionsService) {}

  @Get(':id')
  @ApiOperation({
    summary: 'The full record, card number unmasked, with its status history and balance changes',
  })
  get(@Param('id', TransactionIdPipe) id: string): Promise<AdminTransactionView> {
    return this.transactions.describe(id);
  }

  @Post(':id/status')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary:
      'Operator move per decisions.md section 4; 409 ERROR_TRANSACTION_STATUS_CONFLICT when not allowed',
  })
  setStatus(
    @Param('id', TransactionIdPipe) id: string,
    @Body() body: SetTransactionStatusDto,
    @AdminActor() actor: string,
  ): Promise<TransactionStatusResult> {
    return this.transactions.setStatus(id, body.status as TransactionStatus, actor);
  }
}
