/**
 * Shapes of the core HTTP API (docs/core-api.md) as the merchant API uses them. Amounts travel
 * as decimal strings, never as floats.
 */

export interface CorePayinCreateRequest {
  storeId: number;
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

export interface CorePayoutCreateRequest {
  storeId: number;
  amount: string;
  clientId: string;
  cardNumber: string;
  externalId?: string;
  description?: string;
}

/** Reply of the two create calls. `created` is false when an `externalId` repeat found the existing one. */
export interface CoreCreateResult {
  transactionId: string;
  created: boolean;
}

/** Reply of cancel, confirm and proof: the status after the move. */
export interface CoreStatusResult {
  transactionId: string | null;
  status: string | null;
}

export interface ProofDocument {
  content: Buffer;
  fileName: string;
  mimeType: string;
}

/** What the merchant API passes along with every call, so one request id follows a request across both services. */
export interface CallContext {
  requestId?: string;
}

/** A reply of the core as received on the wire, before any interpretation. */
export interface CoreReply {
  status: number;
  contentType: string | undefined;
  body: string;
}

/** A call that produced no reply: refused connection, reset, timeout. */
export interface TransportFailure {
  code?: string;
  message: string;
}
