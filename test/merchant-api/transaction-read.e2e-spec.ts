import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@app/database';
import { TransactionRepository } from '../../apps/merchant-api/src/transactions/transaction.repository';

const MERCHANT = 1;
const OTHER_MERCHANT = 2;
const ROWS = 3_000;

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Rows Removed by Filter'?: number;
}

/**
 * The read behind every create's answer and every cache miss (TransactionRepository), on a
 * transactions table PostgreSQL has no statistics for: a fresh database before its first
 * autoanalyze. A temporary table of the same definition stands in for it on this one
 * connection (autovacuum never analyzes temporary tables).
 */
describe('merchant-api: reading one transaction', () => {
  let dataSource: DataSource;
  let repository: TransactionRepository;
  const mine = randomUUID();
  const theirs = randomUUID();

  beforeAll(async () => {
    dataSource = createDataSource(process.env.DATABASE_URL!, 1, 'test-transaction-read');
    await dataSource.initialize();
    await dataSource.query(
      'CREATE TEMP TABLE transactions (LIKE public.transactions INCLUDING ALL)',
    );
    // ROWS payins of the merchant, then `mine` of the same merchant and `theirs` of another.
    await dataSource.query(
      `INSERT INTO transactions
         (id, type, merchant_id, store_id, request_hash, status, amount, currency)
       SELECT id, 'payin', merchant_id, 1, 'hash', 'pending', 10, 'USD'
         FROM (SELECT gen_random_uuid(), $1::int FROM generate_series(1, $2::int)
               UNION ALL VALUES ($3::uuid, $1::int), ($4::uuid, $5::int)) AS t(id, merchant_id)`,
      [MERCHANT, ROWS, mine, theirs, OTHER_MERCHANT],
    );
    repository = new TransactionRepository(dataSource);
  });
  afterAll(() => dataSource.destroy());

  it('reads the one row by its primary key, not every transaction of the merchant', async () => {
    expect((await repository.findForMerchant(MERCHANT, 'payin', mine))?.id).toBe(mine);

    const [{ name }] = (await dataSource.query(
      `SELECT name FROM pg_prepared_statements WHERE statement LIKE '%FROM transactions%'`,
    )) as Array<{ name: string }>;
    const [{ 'QUERY PLAN': plan }] = (await dataSource.query(
      `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE "${name}"('${mine}')`,
    )) as Array<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>;
    const [{ primaryKey }] = (await dataSource.query(
      `SELECT indexrelid::regclass::text AS "primaryKey" FROM pg_index
        WHERE indrelid = 'pg_temp.transactions'::regclass AND indisprimary`,
    )) as Array<{ primaryKey: string }>;
    expect(plan[0].Plan).toMatchObject({ 'Node Type': 'Index Scan', 'Index Name': primaryKey });
    expect(plan[0].Plan['Rows Removed by Filter'] ?? 0).toBe(0);
  });

  it("finds neither another merchant's transaction nor a payin asked for as a payout", async () => {
    expect(await repository.findForMerchant(MERCHANT, 'payin', theirs)).toBeNull();
    expect(await repository.findForMerchant(OTHER_MERCHANT, 'payin', theirs)).not.toBeNull();
    expect(await repository.findForMerchant(MERCHANT, 'payout', mine)).toBeNull();
    expect(await repository.findForMerchant(MERCHANT, 'payin', randomUUID())).toBeNull();
  });
});
