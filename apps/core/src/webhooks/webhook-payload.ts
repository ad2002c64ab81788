import { Webhook } from 'standardwebhooks';
import type { Transaction, TransactionStatus, TransactionType, WebhookMethod } from '@app/database';
import { sign } from '@app/signature';
import { moneyToNumber } from '../common/money';

/** The notification fields of decisions.md section 5, without `signature`. */
export interface WebhookFields {
  eventId: string;
  type: TransactionType;
  transactionId: string;
  /** Present only when the merchant gave a paymentId. */
  externalId?: string;
  status: TransactionStatus;
  amount: number;
  currency: string;
  isTest: boolean;
  updatedAt: string;
}

/** What the sender puts on the wire for one attempt. */
export interface WebhookRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

export const WEBHOOK_USER_AGENT = 'payment-gateway-webhooks/1';

const pad = (value: number): string => String(value).padStart(2, '0');

/** `dd.mm.yyyy HH:mm:ss` in UTC, the timestamp format of the merchant API (decisions.md section 3). */
export function formatTimestamp(date: Date): string {
  return (
    `${pad(date.getUTCDate())}.${pad(date.getUTCMonth() + 1)}.${date.getUTCFullYear()} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`
  );
}

/** The fields of a notification about `transaction` as it is now. */
export function buildWebhookFields(eventId: string, transaction: Transaction): WebhookFields {
  const fields: WebhookFields = {
    eventId,
    type: transaction.type,
    transactionId: transaction.id,
    status: transaction.status,
    amount: moneyToNumber(transaction.amount),
    currency: transaction.currency,
    isTest: transaction.isTest,
    updatedAt: formatTimestamp(transaction.updatedAt),
  };
  if (transaction.externalId) fields.externalId = transaction.externalId;
  return fields;
}

/**
 * One attempt's HTTP request. `post`: the fields and their `signature` as a JSON body, plus the
 * Standard Webhooks headers over that exact body. `get`: the same fields as query parameters
 * next to any the merchant's URL already has; the signature then covers all of them, because a
 * merchant verifies a GET by signing the query it received, exactly as for its own requests.
 */
export function buildWebhookRequest(
  event: { id: string; url: string; method: WebhookMethod; payload: Record<string, unknown> },
  privateToken: string,
  webhookSecret: string | null,
  now: Date,
): WebhookRequest {
  const headers: Record<string, string> = {
    'user-agent': WEBHOOK_USER_AGENT,
    'x-webhook-id': event.id,
  };
  const fields = withoutSignature(event.payload);

  if (event.method === 'get') {
    const url = new URL(event.url);
    url.hash = '';
    const params: Record<string, string> = Object.fromEntries(url.searchParams.entries());
    for (const [key, value] of Object.entries(fields)) {
      if (value !== undefined && value !== null) params[key] = String(value);
    }
    const signature = sign(params, privateToken);
    url.search = new URLSearchParams({ ...params, signature }).toString();
    return { url: url.toString(), method: 'GET', headers };
  }

  const body = JSON.stringify({ ...fields, signature: sign(fields, privateToken) });
  headers['content-type'] = 'application/json';
  if (webhookSecret) {
    const timestamp = new Date(Math.floor(now.getTime() / 1000) * 1000);
    headers['webhook-id'] = event.id;
    headers['webhook-timestamp'] = String(timestamp.getTime() / 1000);
    headers['webhook-signature'] = new Webhook(webhookSecret).sign(event.id, timestamp, body);
  }
  return { url: event.url, method: 'POST', headers, body };
}

const FIELD_ORDER: ReadonlyArray<keyof WebhookFields> = [
  'eventId',
  'type',
  'transactionId',
  'externalId',
  'status',
  'amount',
  'currency',
  'isTest',
  'updatedAt',
];

/**
 * The stored fields without any `signature`, in the documented order: jsonb hands keys back
 * sorted its own way, and a body that reads in a stable order is easier for merchants to debug.
 */
function withoutSignature(payload: Record<string, unknown>): Record<string, unknown> {
  const { signature: _ignored, ...rest } = payload;
  const ordered: Record<string, unknown> = {};
  for (const key of FIELD_ORDER) if (key in rest) ordered[key] = rest[key];
  return Object.assign(ordered, rest);
}
