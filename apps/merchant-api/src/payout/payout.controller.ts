import { Body, Controller, Delete, Headers, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiBody,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiSecurity,
  ApiTags,
} from '@nestjs/swagger';
import { AuthenticatedStore, CurrentStore, MerchantAuth } from '@app/auth';
import type { CallContext } from '@app/core-client';
import { ErrorCode } from '@app/errors';
import { RawBody, RequestContext } from '../common/request-context';
import {
  ACCESS_ERRORS,
  ApiErrors,
  AUTH_ERRORS,
  CORE_ERRORS,
  CREATE_ERRORS,
  INTERNAL_ERROR,
  INVALID_REQUEST,
  INVALID_TRANSACTION_ID,
  PAYLOAD_TOO_LARGE,
  TRANSACTION_NOT_FOUND,
} from '../openapi/api-errors.decorator';
import type { TransactionEnvelope } from '../payin/payin.service';
import { SignedTransactionRequestDto } from '../transactions/dto/signed-transaction.request.dto';
import { TransactionIdParamsDto } from '../transactions/dto/transaction-id.params.dto';
import { TransactionResponseDto } from '../transactions/dto/transaction.response.dto';
import { assertEchoMatchesPath } from '../transactions/transaction-echo';
import { CreatePayoutRequestDto } from './dto/create-payout.request.dto';
import { PayoutService } from './payout.service';

@ApiTags('payout')
@ApiSecurity('publicToken')
@MerchantAuth('payout')
@Controller('api/v1/payout')
export class PayoutController {
  constructor(private readonly payouts: PayoutService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'createPayout',
    summary: 'Create a payout',
    description:
      "Sends money to a recipient card. The amount is debited from the store's balance at once (flow `payout`); a cancel or a failure credits it back (`payout_refund`). Signed over the JSON body as sent, every field except `signature`.",
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Up to 255 printable characters, scoped to the store, kept 24 h. A repeat with the same body returns the first response.',
  })
  @ApiBody({ type: CreatePayoutRequestDto })
  @ApiOkResponse({ type: TransactionResponseDto })
  @ApiErrors([
    ...AUTH_ERRORS,
    ACCESS_ERRORS.payout,
    INVALID_REQUEST,
    PAYLOAD_TOO_LARGE,
    ...CREATE_ERRORS,
    ...CORE_ERRORS,
    {
      status: 409,
      code: ErrorCode.CORE_REQUEST_FAILED,
      when: "The store's balance is smaller than the amount (core `ERROR_INSUFFICIENT_BALANCE`); nothing is written.",
      details: { message: 'ERROR_INSUFFICIENT_BALANCE' },
    },
    INTERNAL_ERROR,
  ])
  create(
    @CurrentStore() store: AuthenticatedStore,
    @Body() dto: CreatePayoutRequestDto,
    @RawBody() body: unknown,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @RequestContext() context: CallContext,
  ): Promise<TransactionEnvelope> {
    return this.payouts.create(store, dto, { idempotencyKey, body }, context);
  }

  @Delete(':transactionId')
  @ApiOperation({
    operationId: 'cancelPayout',
    summary: 'Cancel a payout',
    description:
      'Cancels a pending payout and credits its amount back; any other status is a core 409 passed on. Signed over `transactionId` from the path (string to sign: `transactionId=<transactionId>`); `transactionId` and `signature` go in the JSON body.',
  })
  @ApiBody({ type: SignedTransactionRequestDto })
  @ApiOkResponse({ type: TransactionResponseDto })
  @ApiErrors([
    ...AUTH_ERRORS,
    ACCESS_ERRORS.payout,
    INVALID_TRANSACTION_ID,
    TRANSACTION_NOT_FOUND,
    ...CORE_ERRORS,
    INTERNAL_ERROR,
  ])
  cancel(
    @CurrentStore() store: AuthenticatedStore,
    @Param() params: TransactionIdParamsDto,
    @Body() body: SignedTransactionRequestDto,
    @RequestContext() context: CallContext,
  ): Promise<TransactionEnvelope> {
    assertEchoMatchesPath(params.transactionId, body.transactionId);
    return this.payouts.cancel(store, params.transactionId, context);
  }
}
