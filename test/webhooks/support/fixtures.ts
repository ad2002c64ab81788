import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Transaction, TransactionStatus, WebhookEvent } from '@app/database';
import { TransactionTransitionsService } from '../../../apps/core/src/transactions/transaction-transitions.service';
import { admin, TestStore } from '../../support/factories';
import type { RunningApp } from '../../support/system';

export interface WebhookTestStore extends TestStore {
  webhookSecret: string;
}

/** A fresh merchant and store through the admin API, with its webhook secret and, if given, default target. */
export async function createStore(
  core: RunningApp,
  target?: { url: string; method?: 'get' | 'post' },
): Promise<WebhookTestStore> {
  const operator = admin({ core });
  const store = await operator.createStore();
  const view = await operator.call('get', `/stores/${store.storeId}`).expect(200);
  if (target) await operator.call('patch', `/stores/${store.storeId}/webhook`, target).expect(200);
  return { ...store, webhookSecret: view.body.webhookSecret as string };
}

export interface TransactionInput {
  type?: 'payin' | 'payout';
  amount?: string;
  externalId?: string | null;
  isTest?: boolean;
  webhookUrl?: string | null;
  webhookMethod?: 'get' | 'post' | null;
}

/**
 * A transaction written the way the core writes one: inserted, then recorded through the
 * transitions service (history, outbox, ledger) in the same DB transaction. No payment details
 * check: these tests are about what happens after a status change.
 */
export async function createTransaction(
  core: RunningApp,
  store: TestStore,
  input: TransactionInput = {},
): Promise<Transaction> {
  const dataSource = core.app.get(DataSource);
  const transitions = core.app.get(TransactionTransitionsService);
  return dataSource.transaction(async (manager) => {
    const transaction = await manager.save(
      Transaction,
      manager.create(Transaction, {
        id: randomUUID(),
        type: input.type ?? 'payin',
        merchantId: store.merchantId,
        storeId: store.storeId,
        externalId: input.externalId === undefined ? `order-${randomUUID()}` : input.externalId,
        requestHash: 'webhook-e2e',
        status: 'pending',
        amount: input.amount ?? '100.50',
        currency: 'USD',
        isTest: input.isTest ?? false,
        webhookUrl: input.webhookUrl ?? null,
        webhookMethod: input.webhookMethod ?? null,
        expiresAt: new Date(Date.now() + 3_600_000),
      }),
    );
    // A payout debits the store here, so a payout test funds its store first.
    await transitions.created(manager, transaction, 'merchant');
    return transaction;
  });
}

/** The payer confirms (pending to processing), as the core's confirm does. */
export async function confirm(core: RunningApp, transactionId: string): Promise<Transaction> {
  return move(core, transactionId, (transitions, manager, transaction) =>
    transitions.apply(manager, transaction, { kind: 'confirm' }, 'merchant'),
  );
}

/** An operator's move, as the admin API makes it. */
export async function operatorMove(
  core: RunningApp,
  transactionId: string,
  to: TransactionStatus,
): Promise<Transaction> {
  return move(core, transactionId, (transitions, manager, transaction) =>
    transitions.apply(manager, transaction, { kind: 'operator', to }, 'operator:e2e'),
  );
}

async function move(
  core: RunningApp,
  transactionId: string,
  step: (
    transitions: TransactionTransitionsService,
    manager: import('typeorm').EntityManager,
    transaction: Transaction,
  ) => Promise<Transaction>,
): Promise<Transaction> {
  const transitions = core.app.get(TransactionTransitionsService);
  return core.app
    .get(DataSource)
    .transaction(async (manager) =>
      step(transitions, manager, await transitions.lock(manager, transactionId, {})),
    );
}

/** The outbox rows of a store, oldest first. */
export async function eventsOfStore(core: RunningApp, storeId: number): Promise<WebhookEvent[]> {
  return core.app
    .get(DataSource)
    .manager.find(WebhookEvent, { where: { storeId }, order: { createdAt: 'ASC' } });
}
