import { randomBytes } from 'node:crypto';
import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { AppConfig, APP_CONFIG } from '@app/config';
import { FieldCipher, randomToken } from '@app/crypto';
import { BalanceChange, Merchant, Store } from '@app/database';
import { AppException, ErrorCode } from '@app/errors';
import { AdminAuditService } from '../admin/admin-audit.service';
import { formatMoney, formatRate, money } from '../common/money';
import { LedgerService } from '../ledger/ledger.service';

export interface StoreSettings {
  currency?: string;
  exchangeRate?: string;
  payinFeePercent?: string;
  /** null goes back to the PAYIN_TTL_SECONDS default. */
  payinTtlSeconds?: number | null;
  requireReplayProtection?: boolean;
}

/** What an operator sees of a store, tokens included: they hand them to the merchant. */
export interface StoreView {
  id: number;
  merchantId: number;
  name: string;
  publicToken: string;
  privateToken: string;
  webhookSecret: string | null;
  currency: string;
  exchangeRate: string;
  payinFeePercent: string;
  payinTtlSeconds: number | null;
  effectivePayinTtlSeconds: number;
  requireReplayProtection: boolean;
  balance: string;
  createdAt: string;
  updatedAt: string;
}

export interface BalanceChangeView {
  id: string;
  merchantId: number;
  storeId: number;
  seq: number;
  transactionId: string | null;
  flow: string;
  amount: string;
  balanceBefore: string;
  balanceAfter: string;
  comment: string | null;
  createdAt: string;
}

/** Standard Webhooks secret: `whsec_` and base64 of random bytes, as its libraries expect. */
function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

@Injectable()
export class StoresService {
  constructor(
    @InjectEntityManager() private readonly manager: EntityManager,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly cipher: FieldCipher,
    private readonly audit: AdminAuditService,
    private readonly ledger: LedgerService,
  ) {}

  async create(
    merchantId: number,
    input: { name: string; currency?: string },
    actor: string,
  ): Promise<StoreView> {
    return this.manager.transaction(async (manager) => {
      const merchant = await manager.findOne(Merchant, { where: { id: merchantId } });
      if (!merchant) throw new AppException(ErrorCode.MERCHANT_NOT_FOUND, HttpStatus.NOT_FOUND);
      const store = await manager.save(
        Store,
        manager.create(Store, {
          merchantId,
          name: input.name,
          publicToken: randomToken('pk'),
          privateTokenEnc: this.cipher.encrypt(randomToken('sk', 32)),
          webhookSecretEnc: this.cipher.encrypt(newWebhookSecret()),
          currency: input.currency ?? this.config.core.defaultCurrency,
        }),
      );
      await this.ledger.openBalance(manager, store.id, merchantId);
      await this.audit.record(manager, {
        actor,
        action: 'store.create',
        targetType: 'store',
        targetId: String(store.id),
        details: { merchantId, name: store.name, currency: store.currency },
      });
      return this.view(manager, store.id);
    });
  }

  async get(id: number): Promise<StoreView> {
    return this.view(this.manager, id);
  }

  /** New public and private tokens at once; the old pair stops working when this commits. */
  async rotateTokens(id: number, actor: string): Promise<StoreView> {
    return this.manager.transaction(async (manager) => {
      await this.find(manager, id, true);
      await manager.update(
        Store,
        { id },
        {
          publicToken: randomToken('pk'),
          privateTokenEnc: this.cipher.encrypt(randomToken('sk', 32)),
        },
      );
      await this.audit.record(manager, {
        actor,
        action: 'store.rotate-tokens',
        targetType: 'store',
        targetId: String(id),
      });
      await this.notifyStoreChanged(manager, id);
      return this.view(manager, id);
    });
  }

  async updateSettings(id: number, settings: StoreSettings, actor: string): Promise<StoreView> {
    return this.manager.transaction(async (manager) => {
      const store = await this.find(manager, id, true);
      const changes: Partial<Store> = {};
      if (settings.currency !== undefined) changes.currency = settings.currency;
      if (settings.exchangeRate !== undefined) changes.exchangeRate = settings.exchangeRate;
      if (settings.payinFeePercent !== undefined)
        changes.payinFeePercent = settings.payinFeePercent;
      if (settings.payinTtlSeconds !== undefined)
        changes.payinTtlSeconds = settings.payinTtlSeconds;
      if (settings.requireReplayProtection !== undefined)
        changes.requireReplayProtection = settings.requireReplayProtection;
      const before = Object.fromEntries(
        Object.keys(changes).map((key) => [key, store[key as keyof Store]]),
      );
      if (Object.keys(changes).length > 0) await manager.update(Store, { id }, changes);
      await this.audit.record(manager, {
        actor,
        action: 'store.settings',
        targetType: 'store',
        targetId: String(id),
        details: { before, changes },
      });
      await this.notifyStoreChanged(manager, id);
      return this.view(manager, id);
    });
  }

  /** Operator's signed balance adjustment (flow `adjustment`); below zero is 409 and writes nothing. */
  async adjust(
    id: number,
    input: { amount: string; comment?: string },
    actor: string,
  ): Promise<BalanceChangeView> {
    return this.manager.transaction(async (manager) => {
      const store = await this.find(manager, id);
      const change = await this.ledger.move(manager, {
        storeId: store.id,
        merchantId: store.merchantId,
        flow: 'adjustment',
        amount: money(input.amount),
        comment: input.comment ?? null,
      });
      await this.audit.record(manager, {
        actor,
        action: 'store.adjust',
        targetType: 'store',
        targetId: String(id),
        details: {
          amount: change.amount,
          comment: change.comment,
          balanceChangeId: change.id,
          balanceAfter: change.balanceAfter,
        },
      });
      return balanceChangeView(change);
    });
  }

  async find(manager: EntityManager, id: number, lock = false): Promise<Store> {
    const store = await manager.findOne(Store, {
      where: { id },
      lock: lock ? { mode: 'pessimistic_write' } : undefined,
    });
    if (!store) throw new AppException(ErrorCode.STORE_NOT_FOUND, HttpStatus.NOT_FOUND);
    return store;
  }

  /** The merchant API caches stores (tokens, settings); this tells every instance to drop its copy. */
  private async notifyStoreChanged(manager: EntityManager, id: number): Promise<void> {
    await manager.query(`SELECT pg_notify('gateway_store_changed', $1)`, [String(id)]);
  }

  private async view(manager: EntityManager, id: number): Promise<StoreView> {
    const store = await this.find(manager, id);
    const balance = await this.ledger.balanceOf(manager, id);
    return {
      id: store.id,
      merchantId: store.merchantId,
      name: store.name,
      publicToken: store.publicToken,
      privateToken: this.cipher.decrypt(store.privateTokenEnc),
      webhookSecret: store.webhookSecretEnc ? this.cipher.decrypt(store.webhookSecretEnc) : null,
      currency: store.currency,
      exchangeRate: formatRate(store.exchangeRate),
      payinFeePercent: formatMoney(store.payinFeePercent),
      payinTtlSeconds: store.payinTtlSeconds,
      effectivePayinTtlSeconds: store.payinTtlSeconds ?? this.config.core.payinTtlSeconds,
      requireReplayProtection: store.requireReplayProtection,
      balance: formatMoney(balance),
      createdAt: store.createdAt.toISOString(),
      updatedAt: store.updatedAt.toISOString(),
    };
  }
}

export function balanceChangeView(change: BalanceChange): BalanceChangeView {
  return {
    id: String(change.id),
    merchantId: change.merchantId,
    storeId: change.storeId,
    seq: Number(change.seq),
    transactionId: change.transactionId,
    flow: change.flow,
    amount: formatMoney(change.amount),
    balanceBefore: formatMoney(change.balanceBefore),
    balanceAfter: formatMoney(change.balanceAfter),
    comment: change.comment,
    createdAt: change.createdAt.toISOString(),
  };
}
