import { HttpStatus, Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import Decimal from 'decimal.js';
import { EntityManager, IsNull } from 'typeorm';
import { FieldCipher, maskCardNumber } from '@app/crypto';
import { Merchant, PaymentDetail, PreparedStatement, queryPreparedIn } from '@app/database';
import { AppException, ErrorCode } from '@app/errors';
import { AdminAuditService } from '../admin/admin-audit.service';
import { formatMoney, money } from '../common/money';
import { entityStatement, hydrate, queryRows } from '../common/sql';

export interface NewPaymentDetail {
  cardName?: string;
  bankName?: string;
  cardNumber?: string;
  phoneNumber?: string;
  qrCode?: string;
  accountNumber?: string;
  ibanNumber?: string;
  minAmount?: string;
  maxAmount?: string;
  maxPending?: number;
  merchantId?: number;
}

export interface PaymentDetailChanges {
  enabled?: boolean;
  minAmount?: string | null;
  maxAmount?: string | null;
  maxPending?: number | null;
}

/** The operator's view: the card number masked (the full one lives sealed, for the payment page). */
export interface PaymentDetailView {
  id: number;
  merchantId: number | null;
  cardName: string | null;
  bankName: string | null;
  cardNumber: string | null;
  phoneNumber: string | null;
  qrCode: string | null;
  accountNumber: string | null;
  ibanNumber: string | null;
  minAmount: string | null;
  maxAmount: string | null;
  maxPending: number | null;
  pendingCount: number;
  enabled: boolean;
  lastAssignedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** How many candidates one create may look at before concluding that none fits. */
const MAX_CANDIDATES = 20;

/**
 * First key of the two-key advisory locks a create holds on a detail while it assigns it
 * (the second is the detail id). Two-key locks never meet the one-key migration lock.
 */
const DRAW_LOCK_SPACE = 0x5044; // "PD"

/** Enabled and within its amount range; `d` is the detail, `$2` the amount. */
const FITS = `d.enabled
  AND (d.min_amount IS NULL OR d.min_amount <= $2::numeric)
  AND (d.max_amount IS NULL OR d.max_amount >= $2::numeric)`;

/** Pending payins on detail `d` (a partial index holds exactly these). */
const PENDING_COUNT = `SELECT count(*) FROM transactions t
  WHERE t.payment_detail_id = d.id AND t.status = 'pending' AND t.type = 'payin'`;

interface DetailUsage {
  pending: number;
  lastAssignedAt: Date | null;
}

interface Candidate {
  id: number;
  max_pending: number | null;
}

/** What trying the candidates' locks in order came to. */
type FirstFree =
  'all busy' | { taken: PaymentDetail; refusedId?: never } | { taken?: never; refusedId: number };

/**
 * The fitting candidates of a create, least recently assigned first, with a rotation ticket
 * (`draw`, steps 1 and 2); `$1` the merchant, `$2` the amount.
 */
const CANDIDATES: PreparedStatement = {
  name: 'core.payment-detail-candidates.v1',
  text: `SELECT d.id, d.max_pending,
                (SELECT nextval('payment_detail_rotation_seq'))::text AS ticket
           FROM payment_details d
           LEFT JOIN LATERAL (SELECT t.created_at FROM transactions t
                               WHERE t.payment_detail_id = d.id
                               ORDER BY t.created_at DESC LIMIT 1) latest ON true
          WHERE ${FITS}
            AND (CASE WHEN EXISTS (SELECT 1 FROM payment_details own WHERE own.merchant_id = $1)
                      THEN d.merchant_id = $1 ELSE d.merchant_id IS NULL END)
            AND (d.max_pending IS NULL OR d.max_pending > (${PENDING_COUNT}))
          ORDER BY latest.created_at ASC NULLS FIRST, d.id ASC
          LIMIT ${MAX_CANDIDATES}`,
};

/**
 * Tries the advisory locks of the candidates `$1` in order and reads the first one granted
 * under FOR KEY SHARE, with whether it still fits the amount `$2` (`takeFirstFree`).
 */
const FIRST_FREE = entityStatement(
  'core.payment-detail-first-free.v1',
  PaymentDetail,
  (columns) => `WITH granted AS (
     SELECT c.id FROM unnest($1::int[]) AS c(id)
      WHERE pg_try_advisory_xact_lock(${DRAW_LOCK_SPACE}, c.id)
      LIMIT 1)
   SELECT ${columns('d')}, (${FITS}) AS fits_now
     FROM payment_details d
    WHERE d.id = (SELECT id FROM granted)
      FOR KEY SHARE`,
);

/**
 * The pool of receiving details. An operator adds and tunes them; every payin create draws one
 * inside its own transaction (`draw`).
 */
@Injectable()
export class PaymentDetailsService {
  constructor(
    @InjectEntityManager() private readonly manager: EntityManager,
    private readonly cipher: FieldCipher,
    private readonly audit: AdminAuditService,
  ) {}

  async add(input: NewPaymentDetail, actor: string): Promise<PaymentDetailView> {
    return this.manager.transaction(async (manager) => {
      if (
        input.merchantId != null &&
        !(await manager.exists(Merchant, { where: { id: input.merchantId } }))
      ) {
        throw new AppException(ErrorCode.MERCHANT_NOT_FOUND, HttpStatus.NOT_FOUND);
      }
      assertRange(input.minAmount, input.maxAmount);
      const detail = await manager.save(
        PaymentDetail,
        manager.create(PaymentDetail, {
          merchantId: input.merchantId ?? null,
          cardName: input.cardName ?? null,
          bankName: input.bankName ?? null,
          cardNumberEnc: input.cardNumber ? this.cipher.encrypt(input.cardNumber) : null,
          cardNumberMasked: input.cardNumber ? maskCardNumber(input.cardNumber) : null,
          phoneNumber: input.phoneNumber ?? null,
          qrCode: input.qrCode ?? null,
          accountNumber: input.accountNumber ?? null,
          ibanNumber: input.ibanNumber ?? null,
          minAmount: input.minAmount ?? null,
          maxAmount: input.maxAmount ?? null,
          maxPending: input.maxPending ?? null,
        }),
      );
      const { cardNumber: _full, ...safe } = input;
      await this.audit.record(manager, {
        actor,
        action: 'payment-details.add',
        targetType: 'payment_detail',
        targetId: String(detail.id),
        details: { ...safe, cardNumber: detail.cardNumberMasked },
      });
      return this.view(manager, detail);
    });
  }

  async update(
    id: number,
    changes: PaymentDetailChanges,
    actor: string,
  ): Promise<PaymentDetailView> {
    return this.manager.transaction(async (manager) => {
      const detail = await manager.findOne(PaymentDetail, {
        where: { id },
        lock: { mode: 'pessimistic_write' },
      });
      if (!detail) throw new AppException(ErrorCode.PAYMENT_DETAIL_NOT_FOUND, HttpStatus.NOT_FOUND);
      const set = Object.fromEntries(
        Object.entries(changes).filter(([, value]) => value !== undefined),
      ) as PaymentDetailChanges;
      assertRange(
        set.minAmount !== undefined ? set.minAmount : detail.minAmount,
        set.maxAmount !== undefined ? set.maxAmount : detail.maxAmount,
      );
      const before = Object.fromEntries(
        Object.keys(set).map((key) => [key, detail[key as keyof PaymentDetail]]),
      );
      if (Object.keys(set).length > 0) await manager.update(PaymentDetail, { id }, set);
      await this.audit.record(manager, {
        actor,
        action: 'payment-details.update',
        targetType: 'payment_detail',
        targetId: String(id),
        details: { before, changes: set },
      });
      return this.view(manager, await manager.findOneByOrFail(PaymentDetail, { id }));
    });
  }

  async list(filter: { merchantId?: number; shared?: boolean } = {}): Promise<PaymentDetailView[]> {
    const where =
      filter.merchantId !== undefined
        ? { merchantId: filter.merchantId }
        : filter.shared
          ? { merchantId: IsNull() }
          : {};
    const details = await this.manager.find(PaymentDetail, { where, order: { id: 'ASC' } });
    const usage = await this.usageOf(
      this.manager,
      details.map((detail) => detail.id),
    );
    return details.map((detail) => toView(detail, usage.get(detail.id)));
  }

  async get(id: number): Promise<PaymentDetailView> {
    const detail = await this.manager.findOne(PaymentDetail, { where: { id } });
    if (!detail) throw new AppException(ErrorCode.PAYMENT_DETAIL_NOT_FOUND, HttpStatus.NOT_FOUND);
    return this.view(this.manager, detail);
  }

  /**
   * Picks receiving details for a new payin of `amount` for `merchantId`, inside the caller's
   * transaction. Null when none fits. A merchant with details reserved for it draws only from
   * those, even when they are all disabled or full: its payers are never sent to the shared
   * pool behind its back.
   *
   * No create waits for another unless a `max_pending` limit needs it (docs/core-api.md,
   * "Payment details pool"):
   * 1. The least recently assigned fitting detail (by its latest committed payin) that no other
   *    create is assigning right now (a try of its advisory lock) wins. Sequential creates thus
   *    take the pool in turn. One statement tries the candidates in order and reads the first
   *    free one, so a busy pool costs no more round trips than an idle one.
   * 2. When every fitting detail is busy, a detail without a limit is taken by rotation (a
   *    sequence ticket, drawn with the candidates), without waiting: concurrent creates spread
   *    evenly across the pool.
   * 3. Only details with a limit remain: wait for their lock in turn, as the count must.
   * Whatever is taken is read under FOR KEY SHARE, which an operator's change (FOR UPDATE)
   * waits for and which waits for it, so a detail disabled or narrowed before the create gets
   * there is never assigned after the change returned.
   */
  async draw(
    manager: EntityManager,
    merchantId: number,
    amount: Decimal,
  ): Promise<PaymentDetail | null> {
    const candidates = await queryPreparedIn<Candidate & { ticket: string }>(manager, CANDIDATES, [
      merchantId,
      formatMoney(amount),
    ]);
    if (candidates.length === 0) return null;
    let untried: Candidate[] = candidates;
    while (untried.length > 0) {
      const attempt = await this.takeFirstFree(manager, untried, amount);
      if (attempt === 'all busy') break;
      if (attempt.taken) return attempt.taken;
      untried = untried.slice(untried.findIndex((c) => c.id === attempt.refusedId) + 1);
    }
    const unlimited = candidates.filter((candidate) => candidate.max_pending === null);
    const first = Number(BigInt(candidates[0].ticket) % BigInt(Math.max(unlimited.length, 1)));
    for (let i = 0; i < unlimited.length; i++) {
      const candidate = unlimited[(first + i) % unlimited.length];
      const taken = await this.take(manager, candidate, amount, 'none');
      if (taken) return taken;
    }
    for (const candidate of candidates.filter((c) => c.max_pending !== null)) {
      const taken = await this.take(manager, candidate, amount, 'wait');
      if (taken) return taken;
    }
    return null;
  }

  /**
   * Step 1 of `draw`: tries the advisory locks of `candidates` in order and reads the first one
   * granted, in one statement (a failed try holds nothing, so at most one lock is taken). A
   * detail without a limit is taken as read. A limited one is read again, now that the lock is
   * held, so its pending count sees every payin the previous holder committed. A refused
   * detail's lock is dropped again by the savepoint, and its id is returned so the caller goes
   * on after it.
   */
  private async takeFirstFree(
    manager: EntityManager,
    candidates: Candidate[],
    amount: Decimal,
  ): Promise<FirstFree> {
    await manager.query('SAVEPOINT payment_detail_take');
    const [row] = await queryPreparedIn<
      Record<string, unknown> & { id: number; max_pending: number | null; fits_now: boolean }
    >(manager, FIRST_FREE(manager), [candidates.map((c) => c.id), formatMoney(amount)]);
    if (!row) {
      await manager.query('RELEASE SAVEPOINT payment_detail_take');
      return 'all busy';
    }
    let taken: Record<string, unknown> | undefined;
    if (row.fits_now && row.max_pending === null) taken = row;
    else if (row.fits_now) taken = await this.readFitting(manager, row.id, amount);
    if (taken) {
      await manager.query('RELEASE SAVEPOINT payment_detail_take');
      return { taken: hydrate(manager, PaymentDetail, taken) };
    }
    await manager.query('ROLLBACK TO SAVEPOINT payment_detail_take');
    await manager.query('RELEASE SAVEPOINT payment_detail_take');
    return { refusedId: row.id };
  }

  /** Detail `id` under FOR KEY SHARE if it fits `amount` and its limit, else undefined. */
  private async readFitting(
    manager: EntityManager,
    id: number,
    amount: Decimal,
  ): Promise<(Record<string, unknown> & { max_pending: number | null }) | undefined> {
    const [row] = await queryRows<
      Record<string, unknown> & { max_pending: number | null; fits: boolean }
    >(
      manager,
      `SELECT d.*, (d.max_pending IS NULL OR d.max_pending > (${PENDING_COUNT})) AS fits
         FROM payment_details d
        WHERE d.id = $1 AND ${FITS}
          FOR KEY SHARE`,
      [id, formatMoney(amount)],
    );
    return row?.fits ? row : undefined;
  }

  /**
   * Takes `candidate` for this create if it still fits, holding its advisory lock (`wait`:
   * waiting for it; `none`: without it, for a detail without a limit only). A refused `wait`
   * candidate's lock is dropped again by the savepoint, so two creates never hold each other's
   * refused details; `none` takes no advisory lock, so it needs no savepoint. The read runs after
   * the lock is granted, so its pending count sees every payin committed by the previous holder:
   * max_pending is never overshot. Returns the detail as that read found it, or null when it
   * was refused.
   */
  private async take(
    manager: EntityManager,
    candidate: Candidate,
    amount: Decimal,
    lock: 'wait' | 'none',
  ): Promise<PaymentDetail | null> {
    if (lock === 'none') {
      const [row] = await queryRows<Record<string, unknown> & { max_pending: number | null }>(
        manager,
        `SELECT d.* FROM payment_details d WHERE d.id = $1 AND ${FITS} FOR KEY SHARE`,
        [candidate.id, formatMoney(amount)],
      );
      if (row && row.max_pending === null) return hydrate(manager, PaymentDetail, row);
      // An operator set a limit after the candidates were read: counting needs the lock after all.
      return row
        ? this.take(manager, { ...candidate, max_pending: row.max_pending }, amount, 'wait')
        : null;
    }
    await manager.query('SAVEPOINT payment_detail_take');
    await manager.query('SELECT pg_advisory_xact_lock($1, $2)', [DRAW_LOCK_SPACE, candidate.id]);
    const row = await this.readFitting(manager, candidate.id, amount);
    if (row) {
      await manager.query('RELEASE SAVEPOINT payment_detail_take');
      return hydrate(manager, PaymentDetail, row);
    }
    await manager.query('ROLLBACK TO SAVEPOINT payment_detail_take');
    await manager.query('RELEASE SAVEPOINT payment_detail_take');
    return null;
  }

  /** The full card number of a detail, for the transaction copy (sealed again there). */
  openCardNumber(detail: PaymentDetail): string | null {
    return detail.cardNumberEnc ? this.cipher.decrypt(detail.cardNumberEnc) : null;
  }

  private async view(manager: EntityManager, detail: PaymentDetail): Promise<PaymentDetailView> {
    const usage = await this.usageOf(manager, [detail.id]);
    return toView(detail, usage.get(detail.id));
  }

  private async usageOf(manager: EntityManager, ids: number[]): Promise<Map<number, DetailUsage>> {
    if (ids.length === 0) return new Map();
    const rows = await queryRows<{ id: number; pending: number; last_assigned_at: Date | null }>(
      manager,
      `SELECT d.id,
              (SELECT count(*)::int FROM transactions t
                WHERE t.payment_detail_id = d.id AND t.status = 'pending' AND t.type = 'payin') AS pending,
              (SELECT t.created_at FROM transactions t
                WHERE t.payment_detail_id = d.id ORDER BY t.created_at DESC LIMIT 1) AS last_assigned_at
         FROM unnest($1::int[]) AS d(id)`,
      [ids],
    );
    return new Map(
      rows.map((row) => [row.id, { pending: row.pending, lastAssignedAt: row.last_assigned_at }]),
    );
  }
}

function assertRange(min: string | null | undefined, max: string | null | undefined): void {
  if (
    min !== null &&
    min !== undefined &&
    max !== null &&
    max !== undefined &&
    money(min).greaterThan(max)
  ) {
    throw new AppException(ErrorCode.INVALID_REQUEST, HttpStatus.BAD_REQUEST, [
      { field: 'minAmount', errors: ['minAmount must not exceed maxAmount'] },
    ]);
  }
}

function toView(
  detail: PaymentDetail,
  usage: DetailUsage = { pending: 0, lastAssignedAt: null },
): PaymentDetailView {
  // Draws no longer stamp the detail row (a hot row); its latest payin says when it was last
  // assigned. The column still answers for details last used before that change.
  const lastAssignedAt = usage.lastAssignedAt ?? detail.lastAssignedAt;
  return {
    id: detail.id,
    merchantId: detail.merchantId,
    cardName: detail.cardName,
    bankName: detail.bankName,
    cardNumber: detail.cardNumberMasked,
    phoneNumber: detail.phoneNumber,
    qrCode: detail.qrCode,
    accountNumber: detail.accountNumber,
    ibanNumber: detail.ibanNumber,
    minAmount: detail.minAmount === null ? null : formatMoney(detail.minAmount),
    maxAmount: detail.maxAmount === null ? null : formatMoney(detail.maxAmount),
    maxPending: detail.maxPending,
    pendingCount: usage.pending,
    enabled: detail.enabled,
    lastAssignedAt: lastAssignedAt ? lastAssignedAt.toISOString() : null,
    createdAt: detail.createdAt.toISOString(),
    updatedAt: detail.updatedAt.toISOString(),
  };
}
