import { DataSource } from 'typeorm';
import { queryPreparedIn } from '@app/database';
import { storeForMerchantCall } from '../../apps/core/src/stores/merchant-access';
import { RunningApp, startCore } from '../support/system';
import { coreKit } from './core-test-kit';

/**
 * The hot statements of a create run as named prepared statements on the transaction's own
 * connection (libs/database/src/prepared.ts, apps/core/src/common/sql.ts).
 */
describe('core: prepared statements', () => {
  let core: RunningApp;
  let kit: ReturnType<typeof coreKit>;
  let db: DataSource;

  beforeAll(async () => {
    core = await startCore();
    kit = coreKit(core);
    db = kit.db;
  });
  afterAll(() => core.app.close());

  it('run on the transaction’s connection: they see its temporary table and its rollback undoes them', async () => {
    const seen = await db.manager
      .transaction(async (tx) => {
        await tx.query('CREATE TEMP TABLE prepared_probe (n int) ON COMMIT DROP');
        const rows = await queryPreparedIn<{ n: number }>(
          tx,
          {
            name: 'test.prepared-probe.v1',
            text: 'INSERT INTO prepared_probe VALUES ($1) RETURNING n',
          },
          [7],
        );
        throw Object.assign(new Error('roll back'), { rows });
      })
      .catch((error: Error & { rows?: unknown }) => error.rows);
    expect(seen).toEqual([{ n: 7 }]);
  });

  it('outside a transaction they run on the pool', async () => {
    const rows = await queryPreparedIn<{ one: number }>(
      db.manager,
      { name: 'test.prepared-one.v1', text: 'SELECT $1::int AS one' },
      [1],
    );
    expect(rows).toEqual([{ one: 1 }]);
  });

  it('keep working on a connection after a migration adds a column, where `*` would fail', async () => {
    const store = await kit.storeWithDetails();
    const outcome = await db.manager
      .transaction(async (tx) => {
        const star = {
          name: 'test.store-star.v1',
          text: 'SELECT s.* FROM stores s WHERE s.id = $1',
        };
        await queryPreparedIn(tx, star, [store.storeId]);
        expect((await storeForMerchantCall(tx, store.storeId, 'payin')).id).toBe(store.storeId);

        await tx.query('ALTER TABLE stores ADD COLUMN prepared_probe integer');

        const after = await storeForMerchantCall(tx, store.storeId, 'payin');
        const starError = await queryPreparedIn(tx, star, [store.storeId]).then(
          () => 'ran',
          (error: Error) => error.message,
        );
        throw Object.assign(new Error('roll back'), { outcome: { id: after.id, starError } });
      })
      .catch((error: Error & { outcome?: unknown }) => error.outcome ?? error.message);
    expect(outcome).toEqual({
      id: store.storeId,
      starError: 'cached plan must not change result type',
    });
  });
});
