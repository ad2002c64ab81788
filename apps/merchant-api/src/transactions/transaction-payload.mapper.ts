import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/config';
import { FieldCipher, maskCardNumber, signFileUrl } from '@app/crypto';
import type { TransactionRecord } from './transaction.record';

/**
 * merchant-api.md section 2.1: the one TransactionPayload of all seven transaction endpoints
 * (payin create, read, cancel, confirm, proof; payout create, cancel). Same keys, same types and
 * the same timestamp format everywhere; `externalId` and `paymentMessengerBot` appear only when
 * set, as the contract says.
 */
export interface TransactionPayload {
  createdAt: string;
  updatedAt: string;
  /** Null for payouts, which do not expire. */
  expiresAt: string | null;
  merchantId: number;
  externalId?: string;
  transactionId: string;
  status: string;
  amount: number;
  currency: string;
  exchangeRate: number;
  description: string | null;
  isTest: boolean;
  /** Null for payouts: they have no payer, so no payment page. */
  paymentPage: string | null;
  paymentMessengerBot?: string;
  payment: {
    cardName: string | null;
    bankName: string | null;
    cardNumber: string | null;
    phoneNumber: string | null;
    qrCode: string | null;
    accountNumber: string | null;
    ibanNumber: string | null;
  };
  client: {
    id: string | null;
    email: string | null;
    name: string | null;
    ip: string | null;
    userAgent: string | null;
    country: string | null;
    city: string | null;
  };
  proof: {
    ping: boolean;
    file: { fileUrl: string; mimeType: string; fileName: string } | null;
  };
}

export interface PayloadSettings {
  /** Base of payment pages and proof-file links: the core's public address (PUBLIC_BASE_URL). */
  publicBaseUrl: string;
  messengerBotBaseUrl: string;
  fileUrlKey: string;
  fileUrlTtlSeconds: number;
  /** Opens a sealed card number when a row has no masked form. */
  openCardNumber: (sealed: string) => string;
}

/** `dd.mm.yyyy HH:mm:ss` in UTC (decisions.md section 3). */
export function formatTimestamp(iso: string | Date): string {
  const date = typeof iso === 'string' ? new Date(iso) : iso;
  const pad = (value: number): string => String(value).padStart(2, '0');
  return (
    `${pad(date.getUTCDate())}.${pad(date.getUTCMonth() + 1)}.${date.getUTCFullYear()} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`
  );
}

/** NUMERIC text as a JSON number: the contract's type. Values stay within 2 decimals, which doubles print exactly. */
function decimalNumber(value: string): number {
  return Number(value);
}

export function toTransactionPayload(
  record: TransactionRecord,
  settings: PayloadSettings,
  now = Date.now(),
): TransactionPayload {
  const base = settings.publicBaseUrl.replace(/\/+$/, '');
  const cardNumber =
    record.payCardNumberMasked ??
    (record.payCardNumberEnc
      ? maskCardNumber(settings.openCardNumber(record.payCardNumberEnc))
      : null);
  return {
    createdAt: formatTimestamp(record.createdAt),
    updatedAt: formatTimestamp(record.updatedAt),
    expiresAt: record.expiresAt ? formatTimestamp(record.expiresAt) : null,
    merchantId: record.merchantId,
    ...(record.externalId !== null ? { externalId: record.externalId } : {}),
    transactionId: record.id,
    status: record.status,
    amount: decimalNumber(record.amount),
    currency: record.currency,
    exchangeRate: decimalNumber(record.exchangeRate),
    description: record.description,
    isTest: record.isTest,
    paymentPage: record.type === 'payin' ? `${base}/pay/${record.id}` : null,
    ...(record.tgbotId
      ? {
          paymentMessengerBot: `${settings.messengerBotBaseUrl.replace(/\/+$/, '')}/${encodeURIComponent(record.tgbotId)}?tid=${record.id}`,
        }
      : {}),
    payment: {
      cardName: record.payCardName,
      bankName: record.payBankName,
      cardNumber,
      phoneNumber: record.payPhoneNumber,
      qrCode: record.payQrCode,
      accountNumber: record.payAccountNumber,
      ibanNumber: record.payIbanNumber,
    },
    client: {
      id: record.clientId === null ? null : String(record.clientId),
      email: record.clientEmail,
      name: record.clientName,
      ip: record.clientIp,
      userAgent: record.clientUserAgent,
      country: record.clientCountry,
      city: record.clientCity,
    },
    proof: {
      ping: record.proofRequested,
      file: record.proofFileKey
        ? {
            fileUrl: signFileUrl(
              base,
              record.proofFileKey,
              settings.fileUrlKey,
              settings.fileUrlTtlSeconds,
              now,
            ),
            mimeType: record.proofMimeType ?? 'application/octet-stream',
            fileName: record.proofFileName ?? record.proofFileKey,
          }
        : null,
    },
  };
}

/** The mapper with the deployment's settings: PUBLIC_BASE_URL, MESSENGER_BOT_BASE_URL, FILE_URL_KEY. */
@Injectable()
export class TransactionPayloadMapper {
  private readonly settings: PayloadSettings;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const cipher = new FieldCipher(config.secrets.encryptionKey);
    this.settings = {
      publicBaseUrl: config.core.publicBaseUrl,
      messengerBotBaseUrl: config.core.messengerBotBaseUrl,
      fileUrlKey: config.secrets.fileUrlKey,
      fileUrlTtlSeconds: config.core.fileUrlTtlSeconds,
      openCardNumber: (sealed) => cipher.decrypt(sealed),
    };
  }

  toPayload(record: TransactionRecord): TransactionPayload {
    return toTransactionPayload(record, this.settings);
  }
}
