import { randomUUID } from 'node:crypto';
import { AdminClient } from '../../scripts/lib/admin-client';
import type { StoreKeys } from '../load/load-spec';
import {
  balancePagePath,
  payinBody,
  signedBody,
  storeHeaders,
  transactionReadPath,
} from '../load/plans';
import { withConnection } from './database';

/** One merchant with one store, as the admin API creates them. */
export interface BenchStore extends StoreKeys {
  merchantId: number;
  storeId: number;
}

/** Everything the scenarios need, created once per run through the documented APIs (and SQL for bulk ledger rows). */
export interface Fixtures {
  /** (a), (a'): a payin to read. */
  read: BenchStore & { payinId: string };
  /** (b): a store that creates payins. */
  create: BenchStore;
  /** (c): a merchant with `rows` balance changes. */
  ledger: BenchStore & { rows: number };
  /** (d): a funded store that pays out. */
  payout: BenchStore;
  /** (e): a funded store with a ledger of its own, for the mixed soak. */
  soak: BenchStore & { rows: number };
}

/** A receiving card that passes the Luhn check, used as the payout recipient. */
export const PAYOUT_CARD = '4111111111111111';

const PAYMENT_DETAILS = 10;
const RECEIVING_CARDS = [
  '4111111111111111',
  '5555555555554444',
  '4012888888881881',
  '5105105105105100',
];

export interface SeedOptions {
  coreUrl: string;
  apiUrl: string;
  adminToken: string;
  databaseUrl: string;
  ledgerRows: number;
  soakLedgerRows: number;
  log: (line: string) => void;
}

export async function seedFixtures(options: SeedOptions): Promise<Fixtures> {
  const admin = new AdminClient(`${options.coreUrl}/admin/v1`, options.adminToken, 'bench');
  // A pool of receiving details for every payin the run creates (decisions.md section 6): ten, a
  // modest pool, so (b)'s 50 clients share each detail with a few others.
  for (let index = 0; index < PAYMENT_DETAILS; index++) {
    await admin.request('POST', '/payment-details', {
      cardName: `BENCH RECEIVER ${index + 1}`,
      bankName: 'Benchmark Bank',
      cardNumber: RECEIVING_CARDS[index % RECEIVING_CARDS.length],
      phoneNumber: `+1000000${String(index).padStart(4, '0')}`,
    });
  }
  const store = async (name: string): Promise<BenchStore> => {
    const merchant = await admin.request<{ id: number }>('POST', '/merchants', {
      name: `bench ${name} ${randomUUID().slice(0, 8)}`,
    });
    const created = await admin.request<{ id: number; publicToken: string; privateToken: string }>(
      'POST',
      `/merchants/${merchant.id}/stores`,
      { name: `bench ${name}` },
    );
    return {
      merchantId: merchant.id,
      storeId: created.id,
      publicToken: created.publicToken,
      privateToken: created.privateToken,
    };
  };

  const read = await store('read');
  const create = await store('create');
  const ledger = await store('ledger');
  const payout = await store('payout');
  const soak = await store('soak');

  options.log(`seeding ${options.ledgerRows.toLocaleString('en-US')} balance changes by SQL`);
  await seedLedger(options.databaseUrl, ledger, options.ledgerRows);
  await seedLedger(options.databaseUrl, soak, options.soakLedgerRows);
  await withConnection(options.databaseUrl, (db) => db.query('VACUUM ANALYZE balance_changes'));

  // Enough for every payout of the run at 1.00 each; the soak's payouts are cancelled again.
  await admin.request('POST', `/stores/${payout.storeId}/adjustments`, {
    amount: '10000000.00',
    comment: 'benchmark funding',
  });
  await admin.request('POST', `/stores/${soak.storeId}/adjustments`, {
    amount: '1000000.00',
    comment: 'benchmark funding',
  });

  const payinId = await createPayin(options.apiUrl, read);
  await expectOk(
    options.apiUrl,
    read,
    transactionReadPath(read, 'payin', payinId),
    'read of the seeded payin',
  );
  await checkLedgerPages(options.apiUrl, ledger, options.ledgerRows);
  return {
    read: { ...read, payinId },
    create,
    ledger: { ...ledger, rows: options.ledgerRows },
    payout,
    soak: { ...soak, rows: options.soakLedgerRows + 1 },
  };
}

/**
 * Appends `rows` balance changes to the merchant's (empty) ledger, satisfying every ledger rule
 * the core keeps: gap-free `seq` from 1, `balance_after = balance_before + amount`, never
 * negative (odd rows credit 100.00, even rows debit 40.00, so the balance after row g has a
 * closed form), then the merchant's counter and the store's balance to match. The rows go in as
 * two halves on two connections at once, which halves the wait on a two-CPU machine.
 */
export async function seedLedger(
  databaseUrl: string,
  store: BenchStore,
  rows: number,
): Promise<void> {
  if (rows <= 0) return;
  const [merchant] = await withConnection(databaseUrl, (db) =>
    db.query<Array<{ count: number }>>(
      'SELECT balance_change_count::int AS count FROM merchants WHERE id = $1',
      [store.merchantId],
    ),
  );
  if (merchant.count !== 0)
    throw new Error(`merchant ${store.merchantId} already has balance changes`);
  const middle = Math.floor(rows / 2);
  const insert = (from: number, to: number): Promise<void> =>
    withConnection(databaseUrl, async (db) => {
      if (from > to) return;
      await db.query(
        `INSERT INTO balance_changes (merchant_id, seq, store_id, flow, amount, balance_before, balance_after, created_at, updated_at)
         SELECT $1, g, $2,
                CASE WHEN g % 2 = 1 THEN 'payin' ELSE 'payout' END,
                CASE WHEN g % 2 = 1 THEN 100.00 ELSE -40.00 END,
                (g / 2) * 100.00 - ((g - 1) / 2) * 40.00,
                ((g + 1) / 2) * 100.00 - (g / 2) * 40.00,
                at, at
           FROM generate_series($3::bigint, $4::bigint) AS g,
                LATERAL (SELECT now() - make_interval(secs => ($5::bigint - g)::double precision) AS at) AS stamp`,
        [store.merchantId, store.storeId, from, to, rows],
      );
    });
  await Promise.all([insert(1, middle), insert(middle + 1, rows)]);
  await withConnection(databaseUrl, (db) =>
    db.transaction(async (manager) => {
      await manager.query('UPDATE merchants SET balance_change_count = $2 WHERE id = $1', [
        store.merchantId,
        rows,
      ]);
      await manager.query(
        `INSERT INTO balances (store_id, merchant_id, amount)
         SELECT $2, $1, balance_after FROM balance_changes WHERE merchant_id = $1 AND seq = $3
         ON CONFLICT (store_id) DO UPDATE SET amount = EXCLUDED.amount, updated_at = now()`,
        [store.merchantId, store.storeId, rows],
      );
      // Any merchant API instance listening drops what it cached about this merchant (docs/core-api.md).
      await manager.query(`SELECT pg_notify('gateway_balance_changed', $1)`, [
        String(store.merchantId),
      ]);
    }),
  );
}

/** POST /api/v1/payin as a merchant does; returns the new transaction id. */
export async function createPayin(apiUrl: string, store: StoreKeys): Promise<string> {
  const response = await fetch(`${apiUrl}/api/v1/payin`, {
    method: 'POST',
    headers: storeHeaders(store, { 'content-type': 'application/json' }),
    body: signedBody(store, payinBody(`bench-seed-${randomUUID()}`)),
  });
  const body = (await response.json()) as { data?: { transactionId?: string } };
  if (response.status !== 200 || !body.data?.transactionId)
    throw new Error(
      `payin create answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`,
    );
  return body.data.transactionId;
}

async function expectOk(
  apiUrl: string,
  store: StoreKeys,
  path: string,
  what: string,
): Promise<unknown> {
  const response = await fetch(`${apiUrl}${path}`, { headers: storeHeaders(store) });
  const body = (await response.json()) as unknown;
  if (response.status !== 200)
    throw new Error(`${what} answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}

/** The seeded ledger as the API sees it: the right total, full first page, a non-empty last page. */
async function checkLedgerPages(apiUrl: string, store: StoreKeys, rows: number): Promise<void> {
  type Page = { data: { total: number; totalPages: number; items: unknown[] } };
  const first = (await expectOk(
    apiUrl,
    store,
    balancePagePath(store, 1, 20),
    'balance page 1',
  )) as Page;
  if (first.data.total !== rows || first.data.items.length !== Math.min(20, rows)) {
    throw new Error(
      `balance page 1 shows total ${first.data.total} and ${first.data.items.length} items; ${rows} rows were seeded`,
    );
  }
  const lastPage = Math.ceil(rows / 20);
  const last = (await expectOk(
    apiUrl,
    store,
    balancePagePath(store, lastPage, 20),
    'last balance page',
  )) as Page;
  if (last.data.items.length !== rows - (lastPage - 1) * 20)
    throw new Error(`last balance page ${lastPage} has ${last.data.items.length} items`);
}
