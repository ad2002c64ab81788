import { createHmac, randomUUID } from 'node:crypto';
import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { AppConfig, APP_CONFIG } from '@app/config';
import { FieldCipher, isValidCardNumber, maskCardNumber, stableHash } from '@app/crypto';
import { AppException, ErrorCode } from '@app/errors';
import { formatMoney, money } from '../common/money';
import { storeForMerchantCall } from '../stores/merchant-access';
import {
  ExternalIdTaken,
  findByExternalId,
  insertTransaction,
  repeatOf,
} from '../transactions/external-id';
import type {
  CreatedTransaction,
  TransactionStatusResult,
} from '../transactions/transaction-results';
import { TransactionTransitionsService } from '../transactions/transaction-transitions.service';

export interface CreatePayoutInput {
  storeId: number;
  amount: string;
  clientId: string;
  cardNumber: string;
  externalId?: string;
  description?: string;
}

/**
 * Payouts: creation debits the store's balance in the same DB transaction (flow `payout`) and
 * is refused whole when the balance is short; cancel (pending only) and an operator's failure
 * credit it back (flow `payout_refund`). The recipient card is sealed and kept masked beside it.
 */
@Injectable()
export class PayoutService {
  constructor(
    @InjectEntityManager() private readonly manager: EntityManager,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly cipher: FieldCipher,
    private readonly transitions: TransactionTransitionsService,
  ) {}

  async create(input: CreatePayoutInput): Promise<CreatedTransaction> {
    if (!isValidCardNumber(input.cardNumber)) {
      throw new AppException(ErrorCode.INVALID_REQUEST, HttpStatus.BAD_REQUEST, [
        {
          field: 'cardNumber',
          errors: ['cardNumber must be 13 to 19 digits passing the Luhn check'],
        },
      ]);
    }
    const requestHash = this.requestHash(input);
    try {
      return await this.manager.transaction(async (manager) => {
        const store = await storeForMerchantCall(manager, input.storeId, 'payout');
        const id = randomUUID();
        const transaction = await insertTransaction(manager, {
          id,
          type: 'payout',
          merchantId: store.merchantId,
          storeId: store.id,
          externalId: input.externalId ?? null,
          requestHash,
          status: 'pending',
          amount: formatMoney(money(input.amount)),
          currency: store.currency,
          exchangeRate: store.exchangeRate,
          description: input.description ?? null,
          clientId: input.clientId,
          payCardNumberEnc: this.cipher.encrypt(input.cardNumber),
          payCardNumberMasked: maskCardNumber(input.cardNumber),
        });
        // Books the debit; ERROR_INSUFFICIENT_BALANCE here rolls back the insert as well.
        await this.transitions.created(manager, transaction, 'merchant', store);
        return { transactionId: id, created: true };
      });
    } catch (error) {
      if (error instanceof ExternalIdTaken && input.externalId !== undefined) {
        const existing = await findByExternalId(
          this.manager,
          input.storeId,
          'payout',
          input.externalId,
        );
        if (existing) return repeatOf(existing, requestHash);
      }
      throw error;
    }
  }

  /** Merchant cancel: pending only; the debit is credited back. */
  async cancel(storeId: number, id: string): Promise<TransactionStatusResult> {
    return this.manager.transaction(async (manager) => {
      const transaction = await this.transitions.lock(manager, id, {
        type: 'payout',
        storeId,
        access: 'payout',
      });
      const updated = await this.transitions.apply(
        manager,
        transaction,
        { kind: 'cancel' },
        'merchant',
      );
      return { transactionId: updated.id, status: updated.status };
    });
  }

  /**
   * The card enters the duplicate check as a keyed hash: a plain SHA-256 of a card number
   * could be reversed by trying the few billion numbers that share a BIN.
   */
  private requestHash(input: CreatePayoutInput): string {
    const card = createHmac('sha256', this.config.secrets.encryptionKey)
      .update(`payout-card:${input.cardNumber}`)
      .digest('hex');
    return stableHash({
      type: 'payout',
      amount: formatMoney(input.amount),
      clientId: input.clientId,
      card,
      externalId: input.externalId,
      description: input.description,
    });
  }
}
