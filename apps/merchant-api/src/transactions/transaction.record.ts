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
  /**
   * Sealed; kept only when the row lacks the masked form, the one case the payload opens it in,
   * so a sealed card number reaches the cache only when it has to.
   */
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
    payCardNumberEnc: row.payCardNumberMasked === null ? row.payCardNumberEnc : null,
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

/**
 * A record as the read cache holds it: its values in TRANSACTION_RECORD_COLUMNS order. As an
 * object, the key names were half of each entry's JSON; every cached payin or payout paid for
 * them in memory (in-process or Redis) and in parsing on each hit (docs/benchmarks.md).
 */
export type PackedTransactionRecord = TransactionRecord[keyof TransactionRecord][];

export function packTransactionRecord(record: TransactionRecord): PackedTransactionRecord {
  return TRANSACTION_RECORD_COLUMNS.map((property) => record[property as keyof TransactionRecord]);
}

/**
 * The inverse of packTransactionRecord. A literal rather than a loop: an object given more than a
 * dozen properties through computed keys turns into a slow dictionary-mode object in V8.
 */
export function unpackTransactionRecord(packed: PackedTransactionRecord): TransactionRecord {
  const value = packed as never[];
  return {
    id: value[0],
    type: value[1],
    merchantId: value[2],
    storeId: value[3],
    externalId: value[4],
    status: value[5],
    amount: value[6],
    currency: value[7],
    exchangeRate: value[8],
    description: value[9],
    isTest: value[10],
    clientId: value[11],
    clientEmail: value[12],
    clientName: value[13],
    clientIp: value[14],
    clientUserAgent: value[15],
    clientCountry: value[16],
    clientCity: value[17],
    tgbotId: value[18],
    payCardName: value[19],
    payBankName: value[20],
    payCardNumberMasked: value[21],
    payCardNumberEnc: value[22],
    payPhoneNumber: value[23],
    payQrCode: value[24],
    payAccountNumber: value[25],
    payIbanNumber: value[26],
    proofRequested: value[27],
    proofFileKey: value[28],
    proofMimeType: value[29],
    proofFileName: value[30],
    expiresAt: value[31],
    createdAt: value[32],
    updatedAt: value[33],
  };
}
