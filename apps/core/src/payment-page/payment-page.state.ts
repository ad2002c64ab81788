import type { PayinStatus, Transaction } from '@app/database';
import { messagesFor, type NoticeKey, type PageLanguage } from './payment-page.i18n';

/** The columns of a payin the page reads; nothing else of the record reaches the payer. */
export type PagePayin = Pick<
  Transaction,
  | 'id'
  | 'status'
  | 'amount'
  | 'currency'
  | 'description'
  | 'isTest'
  | 'language'
  | 'expiresAt'
  | 'successUrl'
  | 'failureUrl'
  | 'tgbotId'
  | 'payCardName'
  | 'payBankName'
  | 'payCardNumberEnc'
  | 'payPhoneNumber'
  | 'payQrCode'
  | 'payAccountNumber'
  | 'payIbanNumber'
>;

const FINAL: ReadonlySet<PayinStatus> = new Set<PayinStatus>([
  'success',
  'failed',
  'canceled',
  'expired',
]);

/**
 * What the payer may do in each status (decisions.md section 4): "I have paid" from pending, a
 * receipt from pending or proof_requested. While processing, the operator is deciding: a receipt
 * is taken only once the operator asks for one.
 */
const ACTIONS: Record<PayinStatus, { canConfirm: boolean; canUpload: boolean }> = {
  pending: { canConfirm: true, canUpload: true },
  processing: { canConfirm: false, canUpload: false },
  proof_requested: { canConfirm: false, canUpload: true },
  success: { canConfirm: false, canUpload: false },
  failed: { canConfirm: false, canUpload: false },
  canceled: { canConfirm: false, canUpload: false },
  expired: { canConfirm: false, canUpload: false },
};

export interface PageState {
  status: PayinStatus;
  final: boolean;
  /** Whole seconds until `expiresAt` while the payin is pending; null otherwise. */
  secondsLeft: number | null;
  canConfirm: boolean;
  canUpload: boolean;
  /** The merchant's page to send the payer to once the payin is final, when it gave one. */
  redirectUrl: string | null;
}

/** The status polling answer: the state plus the words for it in the payin's language. */
export interface PageStatusBody extends PageState {
  title: string;
  text: string;
  notice?: string;
}

/**
 * The status the payer should see. A pending payin whose `expiresAt` has passed is shown as
 * expired even before the expiry job has moved it: the details must never be offered after
 * the deadline.
 */
export function effectiveStatus(
  payin: Pick<PagePayin, 'status' | 'expiresAt'>,
  now: Date,
): PayinStatus {
  const status = payin.status as PayinStatus;
  if (status === 'pending' && payin.expiresAt && payin.expiresAt.getTime() <= now.getTime())
    return 'expired';
  return status;
}

/** Only absolute http(s) links are followed: anything else stored in the record is ignored. */
export function safeHttpUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}

export function pageState(payin: PagePayin, now: Date): PageState {
  const status = effectiveStatus(payin, now);
  const final = FINAL.has(status);
  const secondsLeft =
    status === 'pending' && payin.expiresAt
      ? Math.max(0, Math.floor((payin.expiresAt.getTime() - now.getTime()) / 1000))
      : null;
  const redirectUrl = !final
    ? null
    : safeHttpUrl(status === 'success' ? payin.successUrl : payin.failureUrl);
  return { status, final, secondsLeft, ...ACTIONS[status], redirectUrl };
}

export function statusBody(
  state: PageState,
  language: PageLanguage,
  notice?: NoticeKey,
): PageStatusBody {
  const messages = messagesFor(language);
  const body: PageStatusBody = { ...state, ...messages.statuses[state.status] };
  if (notice) body.notice = messages.notices[notice];
  return body;
}

/** `<MESSENGER_BOT_BASE_URL>/<tgbotId>?tid=<transactionId>` (decisions.md section 3). */
export function messengerBotUrl(
  baseUrl: string,
  tgbotId: string | null,
  transactionId: string,
): string | null {
  if (!tgbotId) return null;
  return `${baseUrl.replace(/\/+$/, '')}/${encodeURIComponent(tgbotId)}?tid=${encodeURIComponent(transactionId)}`;
}
