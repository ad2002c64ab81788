import { Body, Controller, HttpCode, HttpStatus, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  CoreErrorDto,
  CreatedTransactionDto,
  StoreScopeDto,
  TransactionStatusDto,
} from '../common/dto/core-responses.dto';
import { TransactionIdPipe } from '../common/params';
import { ServiceTokenGuard } from '../common/service-token.guard';
import { withoutNulls } from '../common/without-nulls';
import type {
  CreatedTransaction,
  TransactionStatusResult,
} from '../transactions/transaction-results';
import { CreatePayoutRequestDto } from './dto/create-payout.request.dto';
import { PayoutService } from './payout.service';

@ApiTags('core: payouts')
@ApiBearerAuth('service')
@ApiResponse({ status: 400, type: CoreErrorDto, description: 'ERROR_INVALID_REQUEST' })
@ApiResponse({ status: 401, type: CoreErrorDto, description: 'ERROR_SERVICE_TOKEN_INVALID' })
@ApiResponse({
  status: 403,
  type: CoreErrorDto,
  description: 'ERROR_ACCESS_PAYOUT_DISABLED: the merchant’s access flag is off',
})
@ApiResponse({
  status: 404,
  type: CoreErrorDto,
  description: 'ERROR_STORE_NOT_FOUND, ERROR_MERCHANT_NOT_FOUND, ERROR_TRANSACTION_NOT_FOUND',
})
@UseGuards(ServiceTokenGuard)
@Controller('core/v1/payouts')
export class PayoutController {
  constructor(private readonly payouts: PayoutService) {}

  @Post()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Create a payout: debits the balance in the same DB transaction (flow payout)',
  })
  @ApiOkResponse({ type: CreatedTransactionDto })
  @ApiResponse({
    status: 409,
    type: CoreErrorDto,
    description: 'ERROR_INSUFFICIENT_BALANCE (nothing written), ERROR_DUPLICATE_PAYMENT_ID',
  })
  create(@Body() body: CreatePayoutRequestDto): Promise<CreatedTransaction> {
    return this.payouts.create(withoutNulls(body));
  }

  @Post(':id/cancel')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Merchant cancel: pending → canceled, the amount credited back (flow payout_refund)',
  })
  @ApiOkResponse({ type: TransactionStatusDto })
  @ApiResponse({
    status: 409,
    type: CoreErrorDto,
    description: 'ERROR_TRANSACTION_STATUS_CONFLICT',
  })
  cancel(
    @Param('id', TransactionIdPipe) id: string,
    @Body() body: StoreScopeDto,
  ): Promise<TransactionStatusResult> {
    return this.payouts.cancel(body.storeId, id);
  }
}
