import {
  Body,
  Controller,
  HttpCode,
  HttpStatus,
  Param,
  Post,
  Req,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { AppException, ErrorCode } from '@app/errors';
import {
  CoreErrorDto,
  CreatedTransactionDto,
  StoreScopeDto,
  TransactionStatusDto,
} from '../common/dto/core-responses.dto';
import { TransactionIdPipe } from '../common/params';
import { ServiceTokenGuard } from '../common/service-token.guard';
import { withoutNulls } from '../common/without-nulls';
import { ProofUploadInterceptor } from '../proof/proof-upload.interceptor';
import { CreatePayinRequestDto } from './dto/create-payin.request.dto';
import type {
  CreatedTransaction,
  TransactionStatusResult,
} from '../transactions/transaction-results';
import { PayinService } from './payin.service';

@ApiTags('core: payins')
@ApiBearerAuth('service')
@ApiResponse({ status: 400, type: CoreErrorDto, description: 'ERROR_INVALID_REQUEST' })
@ApiResponse({ status: 401, type: CoreErrorDto, description: 'ERROR_SERVICE_TOKEN_INVALID' })
@ApiResponse({
  status: 403,
  type: CoreErrorDto,
  description: 'ERROR_ACCESS_PAYIN_DISABLED: the merchant’s access flag is off',
})
@ApiResponse({
  status: 404,
  type: CoreErrorDto,
  description: 'ERROR_STORE_NOT_FOUND, ERROR_MERCHANT_NOT_FOUND, ERROR_TRANSACTION_NOT_FOUND',
})
@ApiResponse({
  status: 409,
  type: CoreErrorDto,
  description: 'ERROR_TRANSACTION_STATUS_CONFLICT and the call’s own conflicts',
})
@UseGuards(ServiceTokenGuard)
@Controller('core/v1/payins')
export class PayinController {
  constructor(private readonly payins: PayinService) {}

  @Post()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary:
      'Create a payin: draws payment details, sets expiresAt, status pending; idempotent by externalId',
  })
  @ApiOkResponse({ type: CreatedTransactionDto })
  @ApiResponse({
    status: 409,
    type: CoreErrorDto,
    description: 'ERROR_NO_PAYMENT_DETAILS_AVAILABLE, ERROR_DUPLICATE_PAYMENT_ID',
  })
  create(@Body() body: CreatePayinRequestDto): Promise<CreatedTransaction> {
    return this.payins.create(withoutNulls(body));
  }

  @Post(':id/cancel')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Merchant cancel: pending → canceled' })
  @ApiOkResponse({ type: TransactionStatusDto })
  cancel(
    @Param('id', TransactionIdPipe) id: string,
    @Body() body: StoreScopeDto,
  ): Promise<TransactionStatusResult> {
    return this.payins.cancel(body.storeId, id);
  }

  @Post(':id/confirm')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary:
      'Merchant confirm: pending → processing (test payins: success, or failed for cents .13)',
  })
  @ApiOkResponse({ type: TransactionStatusDto })
  confirm(
    @Param('id', TransactionIdPipe) id: string,
    @Body() body: StoreScopeDto,
  ): Promise<TransactionStatusResult> {
    return this.payins.confirm(body.storeId, id);
  }

  @Post(':id/proof')
  @HttpCode(HttpStatus.OK)
  @UseInterceptors(ProofUploadInterceptor)
  @ApiOperation({
    summary: 'Proof of payment: pending or proof_requested → processing; type decided by content',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['storeId', 'document'],
      properties: {
        storeId: { type: 'integer' },
        document: {
          type: 'string',
          format: 'binary',
          description: 'JPEG, PNG, WebP, HEIC/HEIF, AVIF, BMP, TIFF or PDF, ≤ 10 MB',
        },
      },
    },
  })
  @ApiOkResponse({ type: TransactionStatusDto })
  @ApiResponse({ status: 413, type: CoreErrorDto, description: 'ERROR_FILE_TOO_LARGE' })
  proof(
    @Param('id', TransactionIdPipe) id: string,
    @Body() body: StoreScopeDto,
    @Req() request: Request,
  ): Promise<TransactionStatusResult> {
    const file = request.file;
    if (!file)
      throw new AppException(ErrorCode.INVALID_REQUEST, HttpStatus.BAD_REQUEST, [
        { field: 'document', errors: ['a file is required'] },
      ]);
    return this.payins.uploadProof(body.storeId, id, {
      content: file.buffer,
      originalName: file.originalname,
    });
  }
}
