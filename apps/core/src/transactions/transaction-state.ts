import type {
  BalanceFlow,
  PayinStatus,
  PayoutStatus,
  TransactionStatus,
  TransactionType,
} from '@app/database';

/**
 * The state machines of decisions.md section 4, in one place. Pure: no I/O, so the table test
 * beside it covers every (state, action) pair. Services ask `nextStatus` and refuse a move it
 * answers null for (409 ERROR_TRANSACTION_STATUS_CONFLICT, nothing changed).
 */

/** What can happen to a transaction. `operator` carries the status the operator asks for. */
export type TransitionAction =
  | { kind: 'confirm' }
  | { kind: 'cancel' }
  | { kind: 'proof' }
  | { kind: 'expire' }
  | { kind: 'operator'; to: TransactionStatus };

export interface TransitionSubject {
  type: TransactionType;
  status: TransactionStatus;
  isTest: boolean;
  /** Decimal string; decides the outcome of confirming a test payin. */
  amount: string;
  /** A pending payin past this moment is overdue: only expiry may move it. */
  expiresAt?: Date | null;
}

export const FINAL_PAYIN_STATUSES: readonly PayinStatus[] = [
  'success',
  'failed',
  'canceled',
  'expired',
];
export const FINAL_PAYOUT_STATUSES: readonly PayoutStatus[] = ['success', 'failed', 'canceled'];

/** Operator moves, from -> allowed targets. */
const PAYIN_OPERATOR_MOVES: Partial<Record<PayinStatus, readonly PayinStatus[]>> = {
  processing: ['success', 'failed', 'proof_requested'],
  proof_requested: ['success', 'failed'],
};
const PAYOUT_OPERATOR_MOVES: Partial<Record<PayoutStatus, readonly PayoutStatus[]>> = {
  pending: ['processing'],
  processing: ['success', 'failed'],
};

/** decisions.md section 4: a test payin whose cents are exactly `.13` fails on confirm. */
export function testPayinOutcome(amount: string): 'success' | 'failed' {
  const [, fraction = ''] = amount.split('.');
  return fraction.padEnd(2, '0').slice(0, 2) === '13' ? 'failed' : 'success';
}

/** The status after `action`, or null when the state machine forbids it. */
export function nextStatus(
  subject: TransitionSubject,
  action: TransitionAction,
  now: Date = new Date(),
): TransactionStatus | null {
  return subject.type === 'payin'
    ? nextPayinStatus(subject, action, now)
    : nextPayoutStatus(subject.status as PayoutStatus, action);
}

function nextPayinStatus(
  subject: TransitionSubject,
  action: TransitionAction,
  now: Date,
): PayinStatus | null {
  const from = subject.status as PayinStatus;
  // The expiry job runs every second or so; until it does, an overdue payin must not be paid,
  // confirmed or cancelled as if its deadline had not passed.
  const overdue = from === 'pending' && subject.expiresAt != null && subject.expiresAt <= now;
  if (overdue && action.kind !== 'expire') return null;
  switch (action.kind) {
    case 'confirm':
      if (from !== 'pending') return null;
      // A test payin has no operator behind it: confirm settles it at once.
      return subject.isTest ? testPayinOutcome(subject.amount) : 'processing';
    case 'cancel':
      return from === 'pending' ? 'canceled' : null;
    case 'proof':
      return from === 'pending' || from === 'proof_requested' ? 'processing' : null;
    case 'expire':
      return from === 'pending' ? 'expired' : null;
    case 'operator': {
      const allowed = PAYIN_OPERATOR_MOVES[from] ?? [];
      return allowed.includes(action.to as PayinStatus) ? (action.to as PayinStatus) : null;
    }
  }
}

function nextPayoutStatus(from: PayoutStatus, action: TransitionAction): PayoutStatus | null {
  switch (action.kind) {
    case 'cancel':
      return from === 'pending' ? 'canceled' : null;
    case 'operator': {
      const allowed = PAYOUT_OPERATOR_MOVES[from] ?? [];
      return allowed.includes(action.to as PayoutStatus) ? (action.to as PayoutStatus) : null;
    }
    // Payouts have no payer: nothing to confirm, no proof, no expiry.
    case 'confirm':
    case 'proof':
    case 'expire':
      return null;
  }
}

/**
 * The balance movements a move causes (decisions.md section 4), as flows with their sign.
 * Test payins never touch the balance. The amounts are computed by the caller (docs/money.md).
 */
export function balanceFlowsOf(
  type: TransactionType,
  isTest: boolean,
  from: TransactionStatus | null,
  to: TransactionStatus,
): BalanceFlow[] {
  if (type === 'payin') {
    return !isTest && to === 'success' && from !== 'success' ? ['payin', 'payin_fee'] : [];
  }
  if (from === null && to === 'pending') return ['payout'];
  if (from !== null && (to === 'canceled' || to === 'failed')) return ['payout_refund'];
  return [];
}
