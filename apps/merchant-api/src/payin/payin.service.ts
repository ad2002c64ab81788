import { HttpStatus, Injectable } from '@nestjs/common';
import type { AuthenticatedStore } from '@app/auth';
import { CallContext, CoreClient, CorePayinCreateRequest } from '@app/core-client';
import { detectDocumentType, safeFileName } from '@app/documents';
import { AppException, ErrorCode } from '@app/errors';
import { IdempotencyService } from '../idempotency/idempotency.service';
import { toDecimalString } from '../transactions/money';
import {
  TransactionPayload,
  TransactionPayloadMapper,
} from '../transactions/transaction-payload.mapper';
import { TransactionReader } from '../transactions/transaction-reader.service';
import { CreatePayinRequestDto } from './dto/create-payin.request.dto';
import { PayinRepository } from './payin.repository';

export interface TransactionEnvelope {
  message: 'OK';
  data: TransactionPayload;
}

export interface UploadedDocument {
  buffer: Buffer;
  originalname?: string;
}

/**
 * Payin operations (merchant-api.md 4.1 to 4.5). Reads come from the stored data through the
 * cache; every change is the core's, after which the stored transaction is read again so the
 * response shows it.
 */
@Injectable()
export class PayinService {
  constructor(
    private readonly repository: PayinRepository,
    private readonly reader: TransactionReader,
    private readonly mapper: TransactionPayloadMapper,
    private readonly core: CoreClient,
    private readonly idempotency: IdempotencyService,
  ) {}

  async read(store: AuthenticatedStore, transactionId: string): Promise<TransactionEnvelope> {
    return this.envelope(
      await this.reader.find(store, 'payin', transactionId, this.loader(store, transactionId)),
    );
  }

  async create(
    store: AuthenticatedStore,
    dto: CreatePayinRequestDto,
    sent: { idempotencyKey: string | undefined; body: unknown },
    context: CallContext,
  ): Promise<TransactionEnvelope> {
    return this.idempotency.run(
      {
        storeId: store.storeId,
        key: sent.idempotencyKey,
        route: 'POST /api/v1/payin',
        body: sent.body,
      },
      async () => {
        const { transactionId } = await this.core.createPayin(
          toCoreRequest(store.storeId, dto),
          context,
        );
        return this.afterChange(store, transactionId);
      },
    );
  }

  cancel(
    store: AuthenticatedStore,
    transactionId: string,
    context: CallContext,
  ): Promise<TransactionEnvelope> {
    return this.move(store, transactionId, (storeId, id) =>
      this.core.cancelPayin(storeId, id, context),
    );
  }

  confirm(
    store: AuthenticatedStore,
    transactionId: string,
    context: CallContext,
  ): Promise<TransactionEnvelope> {
    return this.move(store, transactionId, (storeId, id) =>
      this.core.confirmPayin(storeId, id, context),
    );
  }

  /** The store's own payin or 404 first (decisions.md section 2), then the core, then fresh data. */
  private async move(
    store: AuthenticatedStore,
    transactionId: string,
    call: (storeId: number, id: string) => Promise<unknown>,
  ): Promise<TransactionEnvelope> {
    const record = await this.reader.find(
      store,
      'payin',
      transactionId,
      this.loader(store, transactionId),
    );
    await call(record.storeId, record.id);
    return this.afterChange(store, record.id);
  }

  /** Validation (file present, allowed type by content) comes before the lookup, as decisions.md section 2 orders. */
  async uploadProof(
    store: AuthenticatedStore,
    transactionId: string,
    file: UploadedDocument | undefined,
    context: CallContext,
  ): Promise<TransactionEnvelope> {
    if (!file) {
      throw new AppException(ErrorCode.INVALID_REQUEST, HttpStatus.BAD_REQUEST, [
        {
          field: 'document',
          errors: ['a proof file is required in the multipart field "document"'],
        },
      ]);
    }
    const type = await detectDocumentType(file.buffer);
    if (!type) throw new AppException(ErrorCode.INVALID_DOCUMENT_TYPE, HttpStatus.BAD_REQUEST);
    const record = await this.reader.find(
      store,
      'payin',
      transactionId,
      this.loader(store, transactionId),
    );
    await this.core.uploadProof(
      record.storeId,
      record.id,
      {
        content: file.buffer,
        fileName: safeFileName(file.originalname, type.extension),
        mimeType: type.mimeType,
      },
      context,
    );
    return this.afterChange(store, record.id);
  }

  private async afterChange(
    store: AuthenticatedStore,
    transactionId: string,
  ): Promise<TransactionEnvelope> {
    return this.envelope(
      await this.reader.findAfterChange(
        store,
        'payin',
        transactionId,
        this.loader(store, transactionId),
      ),
    );
  }

  private loader(store: AuthenticatedStore, transactionId: string) {
    return () => this.repository.findForMerchant(store.merchantId, transactionId);
  }

  private envelope(
    record: Parameters<TransactionPayloadMapper['toPayload']>[0],
  ): TransactionEnvelope {
    return { message: 'OK', data: this.mapper.toPayload(record) };
  }
}

function toCoreRequest(storeId: number, dto: CreatePayinRequestDto): CorePayinCreateRequest {
  return {
    storeId,
    amount: toDecimalString(dto.amount),
    clientId: String(dto.clientId),
    externalId: dto.paymentId,
    description: dto.description,
    isTest: dto.isTest === undefined ? undefined : dto.isTest === 1,
    gate: dto.gate,
    paymentMethod: dto.paymentMethod,
    clientIp: dto.clientIp,
    clientEmail: dto.clientEmail,
    clientName: dto.clientName,
    successUrl: dto.successUrl,
    failureUrl: dto.failureUrl,
    webhookUrl: dto.webhookUrl,
    webhookMethod: dto.webhookMethod,
    language: dto.language,
    tgbotId: dto.tgbotId,
  };
}
