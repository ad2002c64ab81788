import { HttpStatus, Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { Merchant, Store } from '@app/database';
import { AppException, ErrorCode } from '@app/errors';
import { AdminAuditService } from '../admin/admin-audit.service';

export interface MerchantFlags {
  payinEnabled?: boolean;
  payoutEnabled?: boolean;
  accountEnabled?: boolean;
}

export interface MerchantView {
  id: number;
  name: string;
  payinEnabled: boolean;
  payoutEnabled: boolean;
  accountEnabled: boolean;
  balanceChangeCount: number;
  stores: Array<{ id: number; name: string; currency: string }>;
  createdAt: string;
  updatedAt: string;
}

/** Operator-side merchant management; every write is audited in its own transaction. */
@Injectable()
export class MerchantsService {
  constructor(
    @InjectEntityManager() private readonly manager: EntityManager,
    private readonly audit: AdminAuditService,
  ) {}

  async create(name: string, actor: string): Promise<MerchantView> {
    return this.manager.transaction(async (manager) => {
      const merchant = await manager.save(Merchant, manager.create(Merchant, { name }));
      await this.audit.record(manager, {
        actor,
        action: 'merchant.create',
        targetType: 'merchant',
        targetId: String(merchant.id),
        details: { name },
      });
      return this.view(manager, merchant);
    });
  }

  async get(id: number): Promise<MerchantView> {
    return this.view(this.manager, await this.find(this.manager, id));
  }

  async setFlags(id: number, flags: MerchantFlags, actor: string): Promise<MerchantView> {
    return this.manager.transaction(async (manager) => {
      const merchant = await this.find(manager, id, true);
      const before = {
        payinEnabled: merchant.payinEnabled,
        payoutEnabled: merchant.payoutEnabled,
        accountEnabled: merchant.accountEnabled,
      };
      const changes = Object.fromEntries(
        Object.entries(flags).filter(([, value]) => value !== undefined),
      ) as MerchantFlags;
      await manager.update(Merchant, { id }, changes);
      await this.audit.record(manager, {
        actor,
        action: 'merchant.flags',
        targetType: 'merchant',
        targetId: String(id),
        details: { before, changes },
      });
      // The merchant API caches its view of merchants; this tells every instance to drop it.
      await manager.query(`SELECT pg_notify('gateway_merchant_changed', $1)`, [String(id)]);
      return this.view(manager, await this.find(manager, id));
    });
  }

  private async find(manager: EntityManager, id: number, lock = false): Promise<Merchant> {
    const merchant = await manager.findOne(Merchant, {
      where: { id },
      lock: lock ? { mode: 'pessimistic_write' } : undefined,
    });
    if (!merchant) throw new AppException(ErrorCode.MERCHANT_NOT_FOUND, HttpStatus.NOT_FOUND);
    return merchant;
  }

  private async view(manager: EntityManager, merchant: Merchant): Promise<MerchantView> {
    const stores = await manager.find(Store, {
      where: { merchantId: merchant.id },
      order: { id: 'ASC' },
    });
    return {
      id: merchant.id,
      name: merchant.name,
      payinEnabled: merchant.payinEnabled,
      payoutEnabled: merchant.payoutEnabled,
      accountEnabled: merchant.accountEnabled,
      balanceChangeCount: Number(merchant.balanceChangeCount),
      stores: stores.map((store) => ({ id: store.id, name: store.name, currency: store.currency })),
      createdAt: merchant.createdAt.toISOString(),
      updatedAt: merchant.updatedAt.toISOString(),
    };
  }
}
