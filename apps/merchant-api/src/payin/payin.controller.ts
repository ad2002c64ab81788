import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  UploadedFile,
} from '@nestjs/common';
import {
  ApiBody,
  ApiExtraModels,
  ApiConsumes,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiSecurity,
  ApiTags,
} from '@nestjs/swagger';
import { AuthenticatedStore, CurrentStore, MerchantAuth } from '@app/auth';
import type { CallContext } from '@app/core-client';
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
import { ErrorCode } from '@app/errors';
import { SignedTransactionRequestDto } from '../transactions/dto/signed-transaction.request.dto';
import { TransactionIdParamsDto } from '../transactions/dto/transaction-id.params.dto';
import { TransactionResponseDto } from '../transactions/dto/transaction.response.dto';
import { assertEchoMatchesPath } from '../transactions/transaction-echo';
import { CreatePayinRequestDto } from './dto/create-payin.request.dto';
import { PayinService, TransactionEnvelope, UploadedDocument } from './payin.service';

/** What a cancel or confirm can answer besides 200: the path lookup, then the core's verdict. */
const PAYIN_MOVE_ERRORS = [
  ...AUTH_ERRORS,
  ACCESS_ERRORS.payin,
  INVALID_TRANSACTION_ID,
  TRANSACTION_NOT_FOUND,
  ...CORE_ERRORS,
  INTERNAL_ERROR,
];

const PATH_SIGNING =
  'Signed over the single parameter `transactionId` with the value from the path (string to sign: `transactionId=<transactionId>`), plus `timestamp` and `nonce` when sent.';

@ApiTags('payin')
// Registered explicitly: used as @Query() on GET it is flattened into parameters, and the
// generator would then leave the DELETE and PATCH bodies' $ref to it dangling.
@ApiExtraModels(SignedTransactionRequestDto)
@ApiSecurity('publicToken')
@MerchantAuth('payin')
@Controller('api/v1/payin')
export class PayinController {
  constructor(private readonly payins: PayinService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'createPayin',
    summary: 'Create a payin',
    description:
      'Creates a payin through the core and returns the stored transaction (`pending`, with receiving details and `expiresAt`). Signed over the JSON body as sent, every field except `signature`.',
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Up to 255 printable characters, scoped to the store, kept 24 h. A repeat with the same body returns the first response.',
  })
  @ApiBody({ type: CreatePayinRequestDto })
  @ApiOkResponse({ type: TransactionResponseDto })
  @ApiErrors([
    ...AUTH_ERRORS,
    ACCESS_ERRORS.payin,
    INVALID_REQUEST,
    PAYLOAD_TOO_LARGE,
    ...CREATE_ERRORS,
    ...CORE_ERRORS,
    {
      status: 409,
      code: ErrorCode.CORE_REQUEST_FAILED,
      when: 'No receiving details are available for this payin (core `ERROR_NO_PAYMENT_DETAILS_AVAILABLE`).',
      details: { message: 'ERROR_NO_PAYMENT_DETAILS_AVAILABLE' },
    },
    INTERNAL_ERROR,
  ])
  create(
    @CurrentStore() store: AuthenticatedStore,
    @Body() dto: CreatePayinRequestDto,
    @RawBody() body: unknown,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @RequestContext() context: CallContext,
  ): Promise<TransactionEnvelope> {
    return this.payins.create(store, dto, { idempotencyKey, body }, context);
  }

  @Get(':transactionId')
  @ApiOperation({
    operationId: 'getPayin',
    summary: 'Read a payin',
    description: `${PATH_SIGNING} \`transactionId\` and \`signature\` go in the query.`,
  })
  @ApiOkResponse({ type: TransactionResponseDto })
  @ApiErrors([
    ...AUTH_ERRORS,
    ACCESS_ERRORS.payin,
    INVALID_TRANSACTION_ID,
    TRANSACTION_NOT_FOUND,
    INTERNAL_ERROR,
  ])
  read(
    @CurrentStore() store: AuthenticatedStore,
    @Param() params: TransactionIdParamsDto,
    @Query() query: SignedTransactionRequestDto,
  ): Promise<TransactionEnvelope> {
    assertEchoMatchesPath(params.transactionId, query.transactionId);
    return this.payins.read(store, params.transactionId);
  }

  @Delete(':transactionId')
  @ApiOperation({
    operationId: 'cancelPayin',
    summary: 'Cancel a payin',
    description: `Cancels a pending payin through the core; any other status is a core 409 passed on. ${PATH_SIGNING} \`transactionId\` and \`signature\` go in the JSON body.`,
  })
  @ApiBody({ type: SignedTransactionRequestDto })
  @ApiOkResponse({ type: TransactionResponseDto })
  @ApiErrors(PAYIN_MOVE_ERRORS)
  cancel(
    @CurrentStore() store: AuthenticatedStore,
    @Param() params: TransactionIdParamsDto,
    @Body() body: SignedTransactionRequestDto,
    @RequestContext() context: CallContext,
  ): Promise<TransactionEnvelope> {
    assertEchoMatchesPath(params.transactionId, body.transactionId);
    return this.payins.cancel(store, params.transactionId, context);
  }

  @Patch(':transactionId')
  @ApiOperation({
    operationId: 'confirmPayin',
    summary: 'Confirm a payin',
    description: `"The payer says it has paid": moves a pending payin to processing (a test payin straight to success, or failed when its cents are .13). ${PATH_SIGNING} \`transactionId\` and \`signature\` go in the JSON body.`,
  })
  @ApiBody({ type: SignedTransactionRequestDto })
  @ApiOkResponse({ type: TransactionResponseDto })
  @ApiErrors(PAYIN_MOVE_ERRORS)
  confirm(
    @CurrentStore() store: AuthenticatedStore,
    @Param() params: TransactionIdParamsDto,
    @Body() body: SignedTransactionRequestDto,
    @RequestContext() context: CallContext,
  ): Promise<TransactionEnvelope> {
    assertEchoMatchesPath(params.transactionId, body.transactionId);
    return this.payins.confirm(store, params.transactionId, context);
  }

  @Post(':transactionId')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'uploadPayinProof',
    summary: 'Upload proof of payment',
    description: `Multipart upload of one receipt in the field \`document\` (at most 10 MB). The type is decided by the content: JPEG, PNG, WebP, HEIC/HEIF, AVIF, BMP, TIFF or PDF; GIF and SVG are refused. Moves a pending or proof_requested payin to processing. ${PATH_SIGNING} \`transactionId\` and \`signature\` go in the form as text fields.`,
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['document', 'signature'],
      properties: {
        document: { type: 'string', format: 'binary', description: 'The proof file.' },
        transactionId: { type: 'string', format: 'uuid', description: 'Same as the path.' },
        signature: {
          type: 'string',
          description: 'HMAC-SHA256 hex of `transactionId=<transactionId>`.',
        },
        timestamp: { type: 'integer', description: 'Replay protection (optional). Signed.' },
        nonce: { type: 'string', description: 'Replay protection (optional). Signed.' },
      },
    },
  })
  @ApiOkResponse({ type: TransactionResponseDto })
  @ApiErrors([
    ...AUTH_ERRORS,
    ACCESS_ERRORS.payin,
    {
      ...INVALID_REQUEST,
      when: 'No file in `document`, more than one file, too many or too long fields, a malformed or truncated multipart body, or a bad `transactionId`.',
      details: [
        {
          field: 'document',
          errors: ['a proof file is required in the multipart field "document"'],
        },
      ],
    },
    {
      status: 400,
      code: ErrorCode.INVALID_DOCUMENT_TYPE,
      when: 'The file content is not an allowed type (GIF, SVG, text, ...), whatever its declared type or name.',
    },
    { status: 413, code: ErrorCode.FILE_TOO_LARGE, when: 'The file is over 10 MB.' },
    TRANSACTION_NOT_FOUND,
    ...CORE_ERRORS,
    INTERNAL_ERROR,
  ])
  uploadProof(
    @CurrentStore() store: AuthenticatedStore,
    @Param() params: TransactionIdParamsDto,
    @Body() body: SignedTransactionRequestDto,
    @UploadedFile() file: UploadedDocument | undefined,
    @RequestContext() context: CallContext,
  ): Promise<TransactionEnvelope> {
    assertEchoMatchesPath(params.transactionId, body.transactionId);
    return this.payins.uploadProof(store, params.transactionId, file, context);
  }
}
