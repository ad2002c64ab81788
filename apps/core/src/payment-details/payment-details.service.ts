import { HttpStatus, Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import Decimal from 'decimal.js';
import { EntityManager, IsNull } from 'typeorm';
import { FieldCipher, maskCardNumber } from '@app/crypto';
import { Merchant, PaymentDetail } from '@app/database';
import { AppException, ErrorCode } from '@app/errors';
import { AdminAuditService } from '../admin/admin-audit.service';
import { formatMoney, money } from '../common/money';
import { queryRows } from '../common/sql';

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
    const counts = await this.pendingCounts(
      this.manager,
      details.map((detail) => detail.id),
    );
    return details.map((detail) => toView(detail, counts.get(detail.id) ?? 0));
  }

  async get(id: number): Promise<PaymentDetailView> {
    const detail = await this.manager.findOne(PaymentDetail, { where: { id } });
    if (!detail) throw new AppException(ErrorCode.PAYMENT_DETAIL_NOT_FOUND, HttpStatus.NOT_FOUND);
    return this.view(this.manager, detail);
  }

  /**
   * Picks and locks receiving details for a new payin of `amount` for `merchantId`, inside the
   * caller's transaction, and marks them as just assigned. A merchant with details reserved for
   * it draws only from those, even when they are all disabled or full: its payers are never
   * sent to the shared pool behind its back. The least recently assigned fitting
   * detail wins, which spreads load across the pool. Null when none fits.
   *
   * Concurrency: a first pass skips details other creates hold (SKIP LOCKED), so concurrent
   * creates spread out; if every fitting detail is held, a second pass waits for the best one
   * rather than report "none available" while capacity is only briefly busy. After the lock,
   * the pending count is taken again by a fresh statement, which sees every payin committed
   * before the lock was granted, so max_pending is never overshot.
   */
  async draw(
    manager: EntityManager,
    merchantId: number,
    amount: Decimal,
  ): Promise<PaymentDetail | null> {
    const excluded: number[] = [];
    for (const mode of ['SKIP LOCKED', ''] as const) {
      for (let attempt = 0; attempt < MAX_CANDIDATES; attempt++) {
        // A candidate refused after its lock is released again (rolling back to the savepoint
        // drops its row lock), so two creates never hold each other's refused rows.
        await manager.query('SAVEPOINT payment_detail_pick');
        const [candidate] = await queryRows<{ id: number; max_pending: number | null }>(
          manager,
          `SELECT d.id, d.max_pending
             FROM payment_details d
            WHERE d.enabled
              AND d.id <> ALL($3::int[])
              AND (CASE WHEN EXISTS (SELECT 1 FROM payment_details own WHERE own.merchant_id = $1)
                        THEN d.merchant_id = $1 ELSE d.merchant_id IS NULL END)
              AND (d.min_amount IS NULL OR d.min_amount <= $2::numeric)
              AND (d.max_amount IS NULL OR d.max_amount >= $2::numeric)
              AND (d.max_pending IS NULL OR d.max_pending >
                   (SELECT count(*) FROM transactions t WHERE t.payment_detail_id = d.id AND t.status = 'pending' AND t.type = 'payin'))
            ORDER BY d.last_assigned_at ASC NULLS FIRST, d.id ASC
            LIMIT 1
            FOR UPDATE OF d ${mode}`,
          [merchantId, formatMoney(amount), excluded],
        );
        if (!candidate) {
          await manager.query('RELEASE SAVEPOINT payment_detail_pick');
          break;
        }
        if (await this.stillFits(manager, candidate.id, candidate.max_pending)) {
          await manager.query(
            'UPDATE payment_details SET last_assigned_at = clock_timestamp() WHERE id = $1',
            [candidate.id],
          );
          await manager.query('RELEASE SAVEPOINT payment_detail_pick');
          return manager.findOneByOrFail(PaymentDetail, { id: candidate.id });
        }
        await manager.query('ROLLBACK TO SAVEPOINT payment_detail_pick');
        await manager.query('RELEASE SAVEPOINT payment_detail_pick');
        excluded.push(candidate.id);
      }
    }
    return null;
  }

  /**
   * Re-checked under the lock by fresh statements: they see every payin committed before the
   * lock was granted, and an operator's disable in the meantime.
   */
  private async stillFits(
    manager: EntityManager,
    id: number,
    maxPending: number | null,
  ): Promise<boolean> {
    const [row] = await queryRows<{ enabled: boolean; pending: number }>(
      manager,
      `SELECT d.enabled,
              (SELECT count(*)::int FROM transactions t WHERE t.payment_detail_id = d.id AND t.status = 'pending' AND t.type = 'payin') AS pending
         FROM payment_details d WHERE d.id = $1`,
      [id],
    );
    return Boolean(row?.enabled) && (maxPending === null || row.pending < maxPending);
  }

  /** The full card number of a detail, for the transaction copy (sealed again there). */
  openCardNumber(detail: PaymentDetail): string | null {
    return detail.cardNumberEnc ? this.cipher.decrypt(detail.cardNumberEnc) : null;
  }

  private async view(manager: EntityManager, detail: PaymentDetail): Promise<PaymentDetailView> {
    const counts = await this.pendingCounts(manager, [detail.id]);
    return toView(detail, counts.get(detail.id) ?? 0);
  }

  private async pendingCounts(manager: EntityManager, ids: number[]): Promise<Map<number, number>> {
    if (ids.length === 0) return new Map();
    const rows = await queryRows<{ id: number; pending: number }>(
      manager,
      `SELECT payment_detail_id AS id, count(*)::int AS pending FROM transactions
        WHERE payment_detail_id = ANY($1::int[]) AND status = 'pending' AND type = 'payin' GROUP BY payment_detail_id`,
      [ids],
    );
    return new Map(rows.map((row) => [row.id, row.pending]));
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

function toView(detail: PaymentDetail, pendingCount: number): PaymentDetailView {
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
    pendingCount,
    enabled: detail.enabled,
    lastAssignedAt: detail.lastAssignedAt ? detail.lastAssignedAt.toISOString() : null,
    createdAt: detail.createdAt.toISOString(),
    updatedAt: detail.updatedAt.toISOString(),
  };
}
