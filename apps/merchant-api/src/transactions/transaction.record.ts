import type { Transaction, TransactionType } from '@app/database';

/**
 * The stored transaction as the merchant API caches and maps it: plain JSON (timestamps as ISO
 * strings), so the Redis and in-process caches hold the same thing.
 */
export interface TransactionRecord {
  id: string;
  type: TransactionType;
  merchantId: number;
  storeId: number;
  externalId: string | null;
  status: string;
  amount: string;
  currency: string;
  exchangeRate: string;
  description: string | null;
  isTest: boolean;
  clientId: string | null;
  clientEmail: string | null;
  clientName: string | null;
  clientIp: string | null;
  clientUserAgent: string | null;
  clientCountry: string | null;
  clientCity: string | null;
  tgbotId: string | null;
  payCardName: string | null;
  payBankName: string | null;
  payCardNumberMasked: string | null;
  /** Sealed; opened only when a row lacks the masked form. */
  payCardNumberEnc: string | null;
  payPhoneNumber: string | null;
  payQrCode: string | null;
  payAccountNumber: string | null;
  payIbanNumber: string | null;
  proofRequested: boolean;
  proofFileKey: string | null;
  proofMimeType: string | null;
  proofFileName: string | null;
  expiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The columns a record needs, for repositories' `select`. */
export const TRANSACTION_RECORD_COLUMNS: (keyof Transaction)[] = [
  'id',
  'type',
  'merchantId',
  'storeId',
  'externalId',
  'status',
  'amount',
  'currency',
  'exchangeRate',
  'description',
  'isTest',
  'clientId',
  'clientEmail',
  'clientName',
  'clientIp',
  'clientUserAgent',
  'clientCountry',
  'clientCity',
  'tgbotId',
  'payCardName',
  'payBankName',
  'payCardNumberMasked',
  'payCardNumberEnc',
  'payPhoneNumber',
  'payQrCode',
  'payAccountNumber',
  'payIbanNumber',
  'proofRequested',
  'proofFileKey',
  'proofMimeType',
  'proofFileName',
  'expiresAt',
  'createdAt',
  'updatedAt',
];

export function toTransactionRecord(row: Transaction): TransactionRecord {
  return {
    id: row.id,
    type: row.type,
    merchantId: row.merchantId,
    storeId: row.storeId,
    externalId: row.externalId,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    exchangeRate: row.exchangeRate,
    description: row.description,
    isTest: row.isTest,
    clientId: row.clientId,
    clientEmail: row.clientEmail,
    clientName: row.clientName,
    clientIp: row.clientIp,
    clientUserAgent: row.clientUserAgent,
    clientCountry: row.clientCountry,
    clientCity: row.clientCity,
    tgbotId: row.tgbotId,
    payCardName: row.payCardName,
    payBankName: row.payBankName,
    payCardNumberMasked: row.payCardNumberMasked,
    payCardNumberEnc: row.payCardNumberEnc,
    payPhoneNumber: row.payPhoneNumber,
    payQrCode: row.payQrCode,
    payAccountNumber: row.payAccountNumber,
    payIbanNumber: row.payIbanNumber,
    proofRequested: row.proofRequested,
    proofFileKey: row.proofFileKey,
    proofMimeType: row.proofMimeType,
    proofFileName: row.proofFileName,
    expiresAt: row.expiresAt ? row.expiresAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
