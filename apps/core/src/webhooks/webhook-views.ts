import type {
  WebhookDelivery,
  WebhookEvent,
  WebhookEventStatus,
  WebhookMethod,
} from '@app/database';

/** One delivery attempt in the operators' log. */
export interface WebhookAttemptView {
  attemptedAt: string;
  url: string;
  statusCode: number | null;
  durationMs: number;
  responsePrefix: string | null;
  error: string | null;
}

/** A notification and its delivery log, as the admin API shows it. */
export interface WebhookEventView {
  eventId: string;
  transactionId: string;
  storeId: number;
  /** The transaction status the notification reports. */
  transactionStatus: string;
  url: string;
  method: WebhookMethod;
  status: WebhookEventStatus;
  /** Attempts in the current retry schedule (a resend starts a new one); the log keeps them all. */
  attemptCount: number;
  /** When the next attempt is due; null once delivered or failed. */
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
  /** The notification's fields, without the signature (computed per attempt). */
  payload: Record<string, unknown>;
  attempts: WebhookAttemptView[];
}

export function webhookEventView(
  event: WebhookEvent,
  deliveries: WebhookDelivery[],
): WebhookEventView {
  return {
    eventId: event.id,
    transactionId: event.transactionId,
    storeId: event.storeId,
    transactionStatus: String(event.payload.status),
    url: event.url,
    method: event.method,
    status: event.status,
    attemptCount: event.attempts,
    nextAttemptAt: event.status === 'pending' ? event.nextAttemptAt.toISOString() : null,
    deliveredAt: event.deliveredAt?.toISOString() ?? null,
    createdAt: event.createdAt.toISOString(),
    payload: event.payload,
    attempts: deliveries
      .filter((delivery) => delivery.eventId === event.id)
      .map((delivery) => ({
        attemptedAt: delivery.attemptedAt.toISOString(),
        url: delivery.url,
        statusCode: delivery.statusCode,
        durationMs: delivery.durationMs,
        responsePrefix: delivery.responsePrefix,
        error: delivery.error,
      })),
  };
}
