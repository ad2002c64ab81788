import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { admin, TestStore } from '../support/factories';
import { SigningClient } from '../support/signing-client';
import type { TestSystem } from '../support/system';

export interface TestMerchant {
  store: TestStore;
  client: SigningClient;
}

/**
 * The merchant API suites' shared steps: a fresh merchant with its own store, receiving details
 * reserved for it (so parallel suites never drain each other's), and a signing client.
 */
export function merchantKit(system: TestSystem) {
  const ops = admin(system);
  const db = (): DataSource => system.api.app.get(DataSource);
  return {
    ops,
    db,
    async merchant(options: { baseUrl?: string; funded?: number } = {}): Promise<TestMerchant> {
      const store = await ops.createStore({ name: `merchant-api ${randomUUID()}` });
      await ops.addPaymentDetails({ merchantId: store.merchantId });
      if (options.funded) await ops.fund(store.storeId, options.funded);
      return { store, client: new SigningClient(options.baseUrl ?? system.api.url, store) };
    },
    /** A pending payin through the API; returns its payload. */
    async payin(
      client: SigningClient,
      fields: Record<string, unknown> = {},
    ): Promise<Record<string, unknown> & { transactionId: string }> {
      const res = await client.send('post', '/api/v1/payin', {
        amount: 100.5,
        clientId: 42,
        ...fields,
      });
      if (res.status !== 200)
        throw new Error(`payin create answered ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    async payout(
      client: SigningClient,
      fields: Record<string, unknown> = {},
    ): Promise<Record<string, unknown> & { transactionId: string }> {
      const res = await client.send('post', '/api/v1/payout', {
        amount: 10,
        clientId: 42,
        cardNumber: '4111111111111111',
        ...fields,
      });
      if (res.status !== 200)
        throw new Error(`payout create answered ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    /** The stored status, read past every cache. */
    async storedStatus(transactionId: string): Promise<string> {
      const [row] = (await db().query('SELECT status FROM transactions WHERE id = $1', [
        transactionId,
      ])) as Array<{ status: string }>;
      return row.status;
    },
  };
}

/** Polls `probe` until it returns true or `timeoutMs` passes; returns the time it took. */
export async function within(timeoutMs: number, probe: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await probe()) return Date.now() - started;
    if (Date.now() - started > timeoutMs)
      throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((done) => setTimeout(done, 25));
  }
}

/**
 * Test-only: rewrites a store's sealed private token in place and announces it, as the core
 * announces every store change it makes (the merchant API caches store credentials).
 */
export async function overwriteSealedToken(
  db: DataSource,
  storeId: number,
  sealed: string,
): Promise<void> {
  await db.transaction(async (manager) => {
    await manager.query('UPDATE stores SET private_token_enc = $1 WHERE id = $2', [
      sealed,
      storeId,
    ]);
    await manager.query(`SELECT pg_notify('gateway_store_changed', $1)`, [String(storeId)]);
  });
}

/** Test-only: PostgreSQL skips foreign-key triggers for this one transaction (needs a superuser). */
export async function withoutForeignKeys(
  db: DataSource,
  work: (run: (sql: string, params: unknown[]) => Promise<unknown>) => Promise<unknown>,
): Promise<void> {
  await db.transaction(async (manager) => {
    await manager.query(`SET LOCAL session_replication_role = replica`);
    await work((sql, params) => manager.query(sql, params));
  });
}

/**
 * Sends `request()` until it is answered with `status` or `timeoutMs` passes, and returns the
 * last answer. For changes the merchant API learns from a PostgreSQL notification, which it
 * applies within milliseconds of the commit rather than before the writer's next statement.
 */
export async function untilStatus(
  request: () => PromiseLike<Response>,
  status: number,
  timeoutMs = 3_000,
): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  let res = await request();
  while (res.status !== status && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    res = await request();
  }
  return res;
}

/** Removes a merchant's row while keeping its stores (ERROR_MERCHANT_NOT_FOUND), and puts it back. */
export async function withoutMerchantRow(
  db: DataSource,
  merchantId: number,
  during: () => Promise<void>,
): Promise<void> {
  const [merchant] = (await db.query('SELECT id, name FROM merchants WHERE id = $1', [
    merchantId,
  ])) as Array<{ id: number; name: string }>;
  const announce = (run: (sql: string, params: unknown[]) => Promise<unknown>) =>
    run(`SELECT pg_notify('gateway_merchant_changed', $1)`, [String(merchantId)]);
  await withoutForeignKeys(db, async (run) => {
    await run('DELETE FROM merchants WHERE id = $1', [merchantId]);
    await announce(run);
  });
  try {
    await during();
  } finally {
    await withoutForeignKeys(db, async (run) => {
      await run('INSERT INTO merchants (id, name) VALUES ($1, $2)', [merchant.id, merchant.name]);
      await announce(run);
    });
  }
}

/**
 * A row another processing system wrote badly: no masked card, and a sealed one that does not
 * open with any key of this deployment, so reading the transaction fails unexpectedly (500).
 */
export async function breakSealedCard(db: DataSource, transactionId: string): Promise<void> {
  await db.query(
    `UPDATE transactions SET pay_card_number_masked = NULL, pay_card_number_enc = 'v1.AAAA.BBBB.CCCC' WHERE id = $1`,
    [transactionId],
  );
}
