import { PAYIN_STATUSES, PAYOUT_STATUSES, type TransactionStatus } from '@app/database';
import {
  balanceFlowsOf,
  nextStatus,
  testPayinOutcome,
  type TransitionAction,
} from './transaction-state';

/**
 * Every (state, action) pair of decisions.md section 4, written out by hand. A pair missing from
 * an `allowed` map must be refused, so the loops below check the forbidden ones too.
 */
type Key = string;
const key = (from: string, action: string): Key => `${from} --${action}-->`;

const PAYIN_ALLOWED: Record<Key, TransactionStatus> = {
  [key('pending', 'confirm')]: 'processing',
  [key('pending', 'cancel')]: 'canceled',
  [key('pending', 'proof')]: 'processing',
  [key('pending', 'expire')]: 'expired',
  [key('processing', 'operator:success')]: 'success',
  [key('processing', 'operator:failed')]: 'failed',
  [key('processing', 'operator:proof_requested')]: 'proof_requested',
  [key('proof_requested', 'proof')]: 'processing',
  [key('proof_requested', 'operator:success')]: 'success',
  [key('proof_requested', 'operator:failed')]: 'failed',
};

const TEST_PAYIN_ALLOWED: Record<Key, TransactionStatus> = {
  ...PAYIN_ALLOWED,
  [key('pending', 'confirm')]: 'success',
};

const PAYOUT_ALLOWED: Record<Key, TransactionStatus> = {
  [key('pending', 'cancel')]: 'canceled',
  [key('pending', 'operator:processing')]: 'processing',
  [key('processing', 'operator:success')]: 'success',
  [key('processing', 'operator:failed')]: 'failed',
};

const ALL_STATUSES = Array.from(
  new Set<TransactionStatus>([...PAYIN_STATUSES, ...PAYOUT_STATUSES]),
);
const ACTIONS: Array<{ name: string; action: TransitionAction }> = [
  { name: 'confirm', action: { kind: 'confirm' } },
  { name: 'cancel', action: { kind: 'cancel' } },
  { name: 'proof', action: { kind: 'proof' } },
  { name: 'expire', action: { kind: 'expire' } },
  ...ALL_STATUSES.map((to) => ({
    name: `operator:${to}`,
    action: { kind: 'operator', to } as TransitionAction,
  })),
];

function table(statuses: readonly TransactionStatus[], allowed: Record<Key, TransactionStatus>) {
  return statuses.flatMap((from) =>
    ACTIONS.map(({ name, action }) => ({
      from,
      name,
      action,
      expected: allowed[key(from, name)] ?? null,
    })),
  );
}

describe('payin state machine (decisions.md section 4)', () => {
  it.each(table(PAYIN_STATUSES, PAYIN_ALLOWED))(
    '$from --$name--> $expected',
    ({ from, action, expected }) => {
      expect(
        nextStatus({ type: 'payin', status: from, isTest: false, amount: '100.00' }, action),
      ).toBe(expected);
    },
  );

  it('lists exactly the ten allowed payin moves', () => {
    const allowed = table(PAYIN_STATUSES, PAYIN_ALLOWED).filter((row) => row.expected !== null);
    expect(allowed).toHaveLength(10);
  });

  it('keeps success, failed, canceled and expired final', () => {
    for (const from of ['success', 'failed', 'canceled', 'expired'] as const) {
      for (const { action } of ACTIONS)
        expect(
          nextStatus({ type: 'payin', status: from, isTest: false, amount: '1.00' }, action),
        ).toBeNull();
    }
  });
});

describe('an overdue pending payin (past expiresAt, before the expiry job ran)', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  const subject = (expiresAt: Date) => ({
    type: 'payin' as const,
    status: 'pending' as const,
    isTest: false,
    amount: '10.00',
    expiresAt,
  });

  it('can only expire: confirm, cancel and proof are refused', () => {
    const overdue = subject(new Date(now.getTime() - 1));
    expect(nextStatus(overdue, { kind: 'confirm' }, now)).toBeNull();
    expect(nextStatus(overdue, { kind: 'cancel' }, now)).toBeNull();
    expect(nextStatus(overdue, { kind: 'proof' }, now)).toBeNull();
    expect(nextStatus(overdue, { kind: 'expire' }, now)).toBe('expired');
  });

  it('moves as usual until its last millisecond', () => {
    expect(nextStatus(subject(new Date(now.getTime() + 1)), { kind: 'confirm' }, now)).toBe(
      'processing',
    );
  });
});

describe('test payin state machine', () => {
  it.each(table(PAYIN_STATUSES, TEST_PAYIN_ALLOWED))(
    '$from --$name--> $expected',
    ({ from, action, expected }) => {
      expect(
        nextStatus({ type: 'payin', status: from, isTest: true, amount: '100.00' }, action),
      ).toBe(expected);
    },
  );

  it('confirms a test payin whose cents are .13 to failed, any other amount to success', () => {
    const confirm = (amount: string) =>
      nextStatus({ type: 'payin', status: 'pending', isTest: true, amount }, { kind: 'confirm' });
    expect(confirm('100.13')).toBe('failed');
    expect(confirm('0.13')).toBe('failed');
    expect(confirm('100.12')).toBe('success');
    expect(confirm('100.31')).toBe('success');
    expect(confirm('113.00')).toBe('success');
    expect(confirm('100.1')).toBe('success');
    expect(testPayinOutcome('5')).toBe('success');
  });
});

describe('payout state machine (decisions.md section 4)', () => {
  it.each(table(PAYOUT_STATUSES, PAYOUT_ALLOWED))(
    '$from --$name--> $expected',
    ({ from, action, expected }) => {
      expect(
        nextStatus({ type: 'payout', status: from, isTest: false, amount: '100.00' }, action),
      ).toBe(expected);
    },
  );

  it('refuses payin-only statuses as operator targets', () => {
    expect(
      nextStatus(
        { type: 'payout', status: 'processing', isTest: false, amount: '1.00' },
        { kind: 'operator', to: 'proof_requested' },
      ),
    ).toBeNull();
    expect(
      nextStatus(
        { type: 'payout', status: 'pending', isTest: false, amount: '1.00' },
        { kind: 'operator', to: 'expired' },
      ),
    ).toBeNull();
  });
});

describe('balance flows of a move', () => {
  it('credits a live payin on success, with its fee; nothing for test payins or other moves', () => {
    expect(balanceFlowsOf('payin', false, 'processing', 'success')).toEqual(['payin', 'payin_fee']);
    expect(balanceFlowsOf('payin', false, 'proof_requested', 'success')).toEqual([
      'payin',
      'payin_fee',
    ]);
    expect(balanceFlowsOf('payin', true, 'pending', 'success')).toEqual([]);
    expect(balanceFlowsOf('payin', false, null, 'pending')).toEqual([]);
    for (const to of ['processing', 'failed', 'canceled', 'expired', 'proof_requested'] as const) {
      expect(balanceFlowsOf('payin', false, 'pending', to)).toEqual([]);
    }
  });

  it('debits a payout on creation and credits it back on cancel or failure, not on success', () => {
    expect(balanceFlowsOf('payout', false, null, 'pending')).toEqual(['payout']);
    expect(balanceFlowsOf('payout', false, 'pending', 'canceled')).toEqual(['payout_refund']);
    expect(balanceFlowsOf('payout', false, 'processing', 'failed')).toEqual(['payout_refund']);
    expect(balanceFlowsOf('payout', false, 'pending', 'processing')).toEqual([]);
    expect(balanceFlowsOf('payout', false, 'processing', 'success')).toEqual([]);
  });
});
