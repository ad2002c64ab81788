import { HttpStatus, Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { FieldCipher } from '@app/crypto';
import {
  BalanceChange,
  Transaction,
  TransactionStatus,
  TransactionStatusChange,
} from '@app/database';
import { AppException, ErrorCode } from '@app/errors';
import { formatMoney, formatRate } from '../common/money';
import { balanceChangeView, BalanceChangeView } from '../stores/stores.service';
import { TransactionStatusResult } from '../transactions/transaction-results';
import { TransactionTransitionsService } from '../transactions/transaction-transitions.service';
import { WebhookEventView } from '../webhooks/webhook-views';
import { WebhooksAdminService } from '../webhooks/webhooks-admin.service';
import { AdminAuditService } from './admin-audit.service';

export interface StatusHistoryEntry {
  from: string | null;
  to: string;
  actor: string;
  at: string;
}

/**
 * The operator's full view of one transaction: every column, the card number unmasked (the one
 * documented exception), its status history and its balance changes. Built here and only here,
 * so extra sections (webhook deliveries) are added in one place.
 */
export interface AdminTransactionView {
  id: string;
  type: string;
  merchantId: number;
  storeId: number;
  externalId: string | null;
  status: string;
  amount: string;
  currency: string;
  exchangeRate: string;
  feeAmount: string;
  description: string | null;
  isTest: boolean;
  client: {
    id: string | null;
    email: string | null;
    name: string | null;
    ip: string | null;
    userAgent: string | null;
    country: string | null;
    city: string | null;
  };
  gate: string | null;
  paymentMethod: string | null;
  successUrl: string | null;
  failureUrl: string | null;
  webhookUrl: string | null;
  webhookMethod: string | null;
  language: string | null;
  tgbotId: string | null;
  paymentDetailId: number | null;
  payment: {
    cardName: string | null;
    bankName: string | null;
    cardNumber: string | null;
    phoneNumber: string | null;
    qrCode: string | null;
    accountNumber: string | null;
    ibanNumber: string | null;
  };
  proof: {
    requested: boolean;
    fileKey: string | null;
    mimeType: string | null;
    fileName: string | null;
  };
  expiresAt: string | null;
  createdAt: string;
  updatedAt: string;
  statusHistory: StatusHistoryEntry[];
  balanceChanges: BalanceChangeView[];
  /** Its notifications, oldest first, each with its delivery log. */
  webhookDeliveries: WebhookEventView[];
}

@Injectable()
export class AdminTransactionsService {
  constructor(
    @InjectEntityManager() private readonly manager: EntityManager,
    private readonly cipher: FieldCipher,
    private readonly transitions: TransactionTransitionsService,
    private readonly audit: AdminAuditService,
    private readonly webhooks: WebhooksAdminService,
  ) {}

  /** An operator move (decisions.md section 4), audited in the same DB transaction. */
  async setStatus(
    id: string,
    status: TransactionStatus,
    actor: string,
  ): Promise<TransactionStatusResult> {
    return this.manager.transaction(async (manager) => {
      const transaction = await this.transitions.lock(manager, id, {});
      const from = transaction.status;
      const updated = await this.transitions.apply(
        manager,
        transaction,
        { kind: 'operator', to: status },
        `operator:${actor}`,
      );
      await this.audit.record(manager, {
        actor,
        action: 'transaction.status',
        targetType: 'transaction',
        targetId: id,
        details: { type: updated.type, from, to: updated.status },
      });
      return { transactionId: updated.id, status: updated.status };
    });
  }

  async describe(id: string): Promise<AdminTransactionView> {
    const manager = this.manager;
    const transaction = await manager.findOne(Transaction, { where: { id } });
    if (!transaction) throw new AppException(ErrorCode.TRANSACTION_NOT_FOUND, HttpStatus.NOT_FOUND);
    const history = await manager.find(TransactionStatusChange, {
      where: { transactionId: id },
      order: { id: 'ASC' },
    });
    const changes = await manager.find(BalanceChange, {
      where: { transactionId: id, storeId: transaction.storeId },
      order: { id: 'ASC' },
    });
    return {
      id: transaction.id,
      type: transaction.type,
      merchantId: transaction.merchantId,
      storeId: transaction.storeId,
      externalId: transaction.externalId,
      status: transaction.status,
      amount: formatMoney(transaction.amount),
      currency: transaction.currency,
      exchangeRate: formatRate(transaction.exchangeRate),
      feeAmount: formatMoney(transaction.feeAmount),
      description: transaction.description,
      isTest: transaction.isTest,
      client: {
        id: transaction.clientId,
        email: transaction.clientEmail,
        name: transaction.clientName,
        ip: transaction.clientIp,
        userAgent: transaction.clientUserAgent,
        country: transaction.clientCountry,
        city: transaction.clientCity,
      },
      gate: transaction.gate,
      paymentMethod: transaction.paymentMethod,
      successUrl: transaction.successUrl,
      failureUrl: transaction.failureUrl,
      webhookUrl: transaction.webhookUrl,
      webhookMethod: transaction.webhookMethod,
      language: transaction.language,
      tgbotId: transaction.tgbotId,
      paymentDetailId: transaction.paymentDetailId,
      payment: {
        cardName: transaction.payCardName,
        bankName: transaction.payBankName,
        cardNumber: transaction.payCardNumberEnc
          ? this.cipher.decrypt(transaction.payCardNumberEnc)
          : null,
        phoneNumber: transaction.payPhoneNumber,
        qrCode: transaction.payQrCode,
        accountNumber: transaction.payAccountNumber,
        ibanNumber: transaction.payIbanNumber,
      },
      proof: {
        requested: transaction.proofRequested,
        fileKey: transaction.proofFileKey,
        mimeType: transaction.proofMimeType,
        fileName: transaction.proofFileName,
      },
      expiresAt: transaction.expiresAt ? transaction.expiresAt.toISOString() : null,
      createdAt: transaction.createdAt.toISOString(),
      updatedAt: transaction.updatedAt.toISOString(),
      statusHistory: history.map((row) => ({
        from: row.fromStatus,
        to: row.toStatus,
        actor: row.actor,
        at: row.createdAt.toISOString(),
      })),
      balanceChanges: changes.map(balanceChangeView),
      webhookDeliveries: await this.webhooks.deliveriesForTransaction(id, manager),
    };
  }
}
