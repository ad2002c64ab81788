import { randomUUID } from 'node:crypto';
import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { AppConfig, APP_CONFIG } from '@app/config';
import { FieldCipher, stableHash } from '@app/crypto';
import { Transaction } from '@app/database';
import { detectDocumentType, safeFileName } from '@app/documents';
import { AppException, ErrorCode } from '@app/errors';
import { formatMoney, money, payinFee, settlementAmount } from '../common/money';
import { PaymentDetailsService } from '../payment-details/payment-details.service';
import { PROOF_STORAGE, ProofStorage } from '../proof/proof-storage';
import { storeForMerchantCall } from '../stores/merchant-access';
import {
  ExternalIdTaken,
  findByExternalId,
  insertTransaction,
  repeatOf,
} from '../transactions/external-id';
import { CreatedTransaction, TransactionStatusResult } from '../transactions/transaction-results';
import {
  TransactionScope,
  TransactionTransitionsService,
} from '../transactions/transaction-transitions.service';

export interface CreatePayinInput {
  storeId: number;
  /** Decimal string, at most 2 decimal places. */
  amount: string;
  clientId: string;
  externalId?: string;
  description?: string;
  isTest?: boolean;
  gate?: string;
  paymentMethod?: string;
  clientIp?: string;
  clientEmail?: string;
  clientName?: string;
  clientUserAgent?: string;
  successUrl?: string;
  failureUrl?: string;
  webhookUrl?: string;
  webhookMethod?: 'get' | 'post';
  language?: string;
  tgbotId?: string;
}

export interface ProofFile {
  content: Buffer;
  originalName?: string;
}

/**
 * The payin lifecycle. Merchant calls (through the core API) act for one store; the hosted
 * payment page acts as the payer on a payin by id (`confirmByPayer`, `uploadProofByPayer`,
 * `findForPayer`).
 */
@Injectable()
export class PayinService {
  private readonly logger = new Logger(PayinService.name);

  constructor(
    @InjectEntityManager() private readonly manager: EntityManager,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(PROOF_STORAGE) private readonly storage: ProofStorage,
    private readonly cipher: FieldCipher,
    private readonly details: PaymentDetailsService,
    private readonly transitions: TransactionTransitionsService,
  ) {}

  /**
   * Creates a pending payin with receiving details from the pool. A repeated externalId with the
   * same parameters answers the first payin (`created: false`); with other parameters it is 409
   * ERROR_DUPLICATE_PAYMENT_ID. The unique index decides, also between concurrent duplicates:
   * a new payin (the usual case) costs no lookup before its insert.
   */
  async create(input: CreatePayinInput): Promise<CreatedTransaction> {
    const requestHash = payinRequestHash(input);
    try {
      return await this.manager.transaction(async (manager) => {
        const store = await storeForMerchantCall(manager, input.storeId, 'payin');

        const amount = money(input.amount);
        const detail = await this.details.draw(manager, store.merchantId, amount);
        if (!detail)
          throw new AppException(ErrorCode.NO_PAYMENT_DETAILS_AVAILABLE, HttpStatus.CONFLICT);
        const settled = settlementAmount(amount, store.exchangeRate);
        const ttlSeconds = Math.trunc(store.payinTtlSeconds ?? this.config.core.payinTtlSeconds);

        const id = randomUUID();
        const transaction = await insertTransaction(
          manager,
          {
            id,
            type: 'payin',
            merchantId: store.merchantId,
            storeId: store.id,
            externalId: input.externalId ?? null,
            requestHash,
            status: 'pending',
            amount: formatMoney(amount),
            currency: store.currency,
            exchangeRate: store.exchangeRate,
            description: input.description ?? null,
            isTest: input.isTest ?? false,
            clientId: input.clientId,
            clientEmail: input.clientEmail ?? null,
            clientName: input.clientName ?? null,
            clientIp: input.clientIp ?? null,
            clientUserAgent: input.clientUserAgent ?? null,
            gate: input.gate ?? null,
            paymentMethod: input.paymentMethod ?? null,
            successUrl: input.successUrl ?? null,
            failureUrl: input.failureUrl ?? null,
            webhookUrl: input.webhookUrl ?? null,
            webhookMethod: input.webhookUrl
              ? (input.webhookMethod ?? 'post')
              : (input.webhookMethod ?? null),
            language: input.language ?? null,
            tgbotId: input.tgbotId ?? null,
            paymentDetailId: detail.id,
            payCardName: detail.cardName,
            payBankName: detail.bankName,
            // Already sealed with the same key: copied as is, never opened here.
            payCardNumberEnc: detail.cardNumberEnc,
            payCardNumberMasked: detail.cardNumberMasked,
            payPhoneNumber: detail.phoneNumber,
            payQrCode: detail.qrCode,
            payAccountNumber: detail.accountNumber,
            payIbanNumber: detail.ibanNumber,
            feeAmount: formatMoney(payinFee(settled, store.payinFeePercent)),
          },
          // The database clock decides expiry (the worker compares with now()), so it sets it too.
          ttlSeconds,
        );
        await this.transitions.created(manager, transaction, 'merchant', store);
        return { transactionId: id, created: true };
      });
    } catch (error) {
      if (
        input.externalId !== undefined &&
        (error instanceof ExternalIdTaken ||
          (error instanceof AppException && error.code === ErrorCode.NO_PAYMENT_DETAILS_AVAILABLE))
      ) {
        // A repeat shows here: its insert was skipped, or the pool had nothing left for it,
        // which does not matter to a payin that got its details the first time.
        const existing = await findByExternalId(
          this.manager,
          input.storeId,
          'payin',
          input.externalId,
        );
        if (existing) return repeatOf(existing, requestHash);
      }
      throw error;
    }
  }

  /** Merchant cancel: pending only. */
  cancel(storeId: number, id: string): Promise<TransactionStatusResult> {
    return this.move({ type: 'payin', storeId, access: 'payin' }, id, 'cancel', 'merchant');
  }

  /** Merchant confirm ("the payer says it has paid"). */
  confirm(storeId: number, id: string): Promise<TransactionStatusResult> {
    return this.move({ type: 'payin', storeId, access: 'payin' }, id, 'confirm', 'merchant');
  }

  /** Proof upload by the merchant on the payer's behalf. */
  uploadProof(storeId: number, id: string, file: ProofFile): Promise<TransactionStatusResult> {
    return this.attachProof({ type: 'payin', storeId, access: 'payin' }, id, file, 'merchant');
  }

  /** The payer on the hosted payment page says it has paid. No store scope: the page knows only the id. */
  confirmByPayer(id: string): Promise<TransactionStatusResult> {
    return this.move({ type: 'payin' }, id, 'confirm', 'payer');
  }

  /** The payer uploads its receipt on the hosted payment page. */
  uploadProofByPayer(id: string, file: ProofFile): Promise<TransactionStatusResult> {
    return this.attachProof({ type: 'payin' }, id, file, 'payer');
  }

  /** A payin by id for the payment page; 404 when there is none (or it is a payout). */
  async findForPayer(id: string): Promise<Transaction> {
    const transaction = await this.manager.findOne(Transaction, { where: { id, type: 'payin' } });
    if (!transaction) throw new AppException(ErrorCode.TRANSACTION_NOT_FOUND, HttpStatus.NOT_FOUND);
    return transaction;
  }

  /** The full receiving card number, for the payment page only (decisions.md section 3). */
  receivingCardNumber(transaction: Transaction): string | null {
    return transaction.payCardNumberEnc ? this.cipher.decrypt(transaction.payCardNumberEnc) : null;
  }

  private async move(
    scope: TransactionScope,
    id: string,
    kind: 'cancel' | 'confirm',
    actor: string,
  ): Promise<TransactionStatusResult> {
    return this.manager.transaction(async (manager) => {
      const transaction = await this.transitions.lock(manager, id, scope);
      const updated = await this.transitions.apply(manager, transaction, { kind }, actor);
      return { transactionId: updated.id, status: updated.status };
    });
  }

  /**
   * Types the file by its content, then in one DB transaction moves the payin to processing and
   * points it at the file, written under a fresh random key before the commit. If anything
   * fails after the write, the file is removed again.
   */
  private async attachProof(
    scope: TransactionScope,
    id: string,
    file: ProofFile,
    actor: string,
  ): Promise<TransactionStatusResult> {
    const type = await detectDocumentType(file.content);
    if (!type) throw new AppException(ErrorCode.INVALID_DOCUMENT_TYPE, HttpStatus.BAD_REQUEST);
    const key = this.storage.newKey(type.extension);
    let written = false;
    try {
      return await this.manager.transaction(async (manager) => {
        const transaction = await this.transitions.lock(manager, id, scope);
        const updated = await this.transitions.apply(
          manager,
          transaction,
          { kind: 'proof' },
          actor,
          {
            proofFileKey: key,
            proofMimeType: type.mimeType,
            proofFileName: safeFileName(file.originalName, type.extension),
          },
        );
        await this.storage.write(key, file.content);
        written = true;
        return { transactionId: updated.id, status: updated.status };
      });
    } catch (error) {
      if (written)
        await this.storage
          .remove(key)
          .catch((cause: unknown) =>
            this.logger.warn(`could not remove orphaned proof ${key}: ${String(cause)}`),
          );
      throw error;
    }
  }
}

/** What makes two creates "the same payin": every parameter the merchant chose. */
function payinRequestHash(input: CreatePayinInput): string {
  return stableHash({
    type: 'payin',
    amount: formatMoney(input.amount),
    clientId: input.clientId,
    externalId: input.externalId,
    description: input.description,
    isTest: input.isTest ?? false,
    gate: input.gate,
    paymentMethod: input.paymentMethod,
    clientIp: input.clientIp,
    clientEmail: input.clientEmail,
    clientName: input.clientName,
    successUrl: input.successUrl,
    failureUrl: input.failureUrl,
    webhookUrl: input.webhookUrl,
    webhookMethod: input.webhookMethod,
    language: input.language,
    tgbotId: input.tgbotId,
  });
}
