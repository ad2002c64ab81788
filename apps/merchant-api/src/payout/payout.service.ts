import { Injectable } from '@nestjs/common';
import type { AuthenticatedStore } from '@app/auth';
import { CallContext, CoreClient } from '@app/core-client';
import { IdempotencyService } from '../idempotency/idempotency.service';
import type { TransactionEnvelope } from '../payin/payin.service';
import { toDecimalString } from '../transactions/money';
import { TransactionPayloadMapper } from '../transactions/transaction-payload.mapper';
import { TransactionReader } from '../transactions/transaction-reader.service';
import type { TransactionRecord } from '../transactions/transaction.record';
import { CreatePayoutRequestDto } from './dto/create-payout.request.dto';
import { PayoutRepository } from './payout.repository';

/** Payout operations (merchant-api.md 4.6, 4.7): executed by the core, answered from the stored data. */
@Injectable()
export class PayoutService {
  constructor(
    private readonly repository: PayoutRepository,
    private readonly reader: TransactionReader,
    private readonly mapper: TransactionPayloadMapper,
    private readonly core: CoreClient,
    private readonly idempotency: IdempotencyService,
  ) {}

  async create(
    store: AuthenticatedStore,
    dto: CreatePayoutRequestDto,
    sent: { idempotencyKey: string | undefined; body: unknown },
    context: CallContext,
  ): Promise<TransactionEnvelope> {
    return this.idempotency.run(
      {
        storeId: store.storeId,
        key: sent.idempotencyKey,
        route: 'POST /api/v1/payout',
        body: sent.body,
      },
      async () => {
        const { transactionId } = await this.core.createPayout(
          {
            storeId: store.storeId,
            amount: toDecimalString(dto.amount),
            clientId: String(dto.clientId),
            cardNumber: dto.cardNumber,
            externalId: dto.paymentId,
            description: dto.description,
          },
          context,
        );
        return this.afterChange(store, transactionId);
      },
    );
  }

  async cancel(
    store: AuthenticatedStore,
    transactionId: string,
    context: CallContext,
  ): Promise<TransactionEnvelope> {
    const record = await this.reader.find(
      store,
      'payout',
      transactionId,
      this.loader(store, transactionId),
    );
    await this.core.cancelPayout(record.storeId, record.id, context);
    return this.afterChange(store, record.id);
  }

  private async afterChange(
    store: AuthenticatedStore,
    transactionId: string,
  ): Promise<TransactionEnvelope> {
    return this.envelope(
      await this.reader.findAfterChange(
        store,
        'payout',
        transactionId,
        this.loader(store, transactionId),
      ),
    );
  }

  private loader(store: AuthenticatedStore, transactionId: string) {
    return () => this.repository.findForMerchant(store.merchantId, transactionId);
  }

  private envelope(record: TransactionRecord): TransactionEnvelope {
    return { message: 'OK', data: this.mapper.toPayload(record) };
  }
}
