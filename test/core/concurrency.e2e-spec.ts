import { ExpiryService } from '../../apps/core/src/expiry/expiry.service';
import { RunningApp, startCore } from '../support/system';
import { coreKit } from './core-test-kit';

/** The concurrency guarantees of issue #4, each followed by an invariant check that would catch a lost or doubled movement. */
describe('core concurrency', () => {
  let core: RunningApp;
  let kit: ReturnType<typeof coreKit>;

  beforeAll(async () => {
    // Its expiry timer is parked: the expiry race below runs the workers explicitly.
    core = await startCore({ DATABASE_POOL_SIZE: '20', EXPIRY_INTERVAL_MS: '3600000' });
    kit = coreKit(core);
  });
  afterAll(() => core.app.close());

  it('200 concurrent payouts of 1 on a balance of 100: exactly 100 succeed, the rest are refused, the balance ends at 0', async () => {
    const store = await kit.ops.createStore();
    await kit.ops.fund(store.storeId, 100);
    const results = await Promise.all(
      Array.from({ length: 200 }, () => kit.createPayout(store.storeId, { amount: '1.00' })),
    );
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 409);
    expect(ok).toHaveLength(100);
    expect(refused).toHaveLength(100);
    expect(refused.every((r) => r.body.message === 'ERROR_INSUFFICIENT_BALANCE')).toBe(true);
    expect(await kit.balance(store.storeId)).toBe('0.00');
    const [{ count }] = await kit.db.query(
      `SELECT count(*)::int AS count FROM transactions WHERE store_id = $1 AND type = 'payout'`,
      [store.storeId],
    );
    expect(count).toBe(100);
    const changes = await kit.changes(store.storeId);
    expect(changes).toHaveLength(101);
    expect(
      new Set(changes.filter((c) => c.flow === 'payout').map((c) => c.transactionId)).size,
    ).toBe(100);
    await kit.assertLedgerInvariant(store.merchantId);
  });

  it('a merchant cancel racing the operator on a payout: exactly one wins and the ledger follows the winner', async () => {
    const store = await kit.ops.createStore();
    await kit.ops.fund(store.storeId, 100);
    const outcomes = { canceled: 0, processed: 0 };
    for (let round = 0; round < 20; round++) {
      const { body } = await kit.createPayout(store.storeId, { amount: '1.00' }).expect(200);
      const [cancel, operator] = await Promise.all([
        kit.move('payouts', body.transactionId, 'cancel', store.storeId),
        kit.ops
          .setStatus(body.transactionId, 'processing')
          .then(async (first) =>
            first.status === 200 ? kit.ops.setStatus(body.transactionId, 'success') : first,
          ),
      ]);
      expect([cancel.status, operator.status].sort()).toEqual([200, 409]);
      const refs = (await kit.changes(store.storeId))
        .filter((c) => c.transactionId === body.transactionId)
        .map((c) => c.flow);
      if (cancel.status === 200) {
        outcomes.canceled++;
        expect(refs).toEqual(['payout', 'payout_refund']);
      } else {
        outcomes.processed++;
        expect(refs).toEqual(['payout']);
      }
    }
    expect(await kit.balance(store.storeId)).toBe(`${100 - outcomes.processed}.00`);
    await kit.assertLedgerInvariant(store.merchantId);
  });

  it('a merchant cancel racing confirm-then-operator-success on a payin: exactly one wins, credited at most once', async () => {
    const store = await kit.storeWithDetails();
    let successes = 0;
    for (let round = 0; round < 20; round++) {
      const { body } = await kit.createPayin(store.storeId, { amount: '2.00' }).expect(200);
      const [cancel, approval] = await Promise.all([
        kit.move('payins', body.transactionId, 'cancel', store.storeId),
        kit
          .move('payins', body.transactionId, 'confirm', store.storeId)
          .then(async (confirm) =>
            confirm.status === 200 ? kit.ops.setStatus(body.transactionId, 'success') : confirm,
          ),
      ]);
      expect([cancel.status, approval.status].sort()).toEqual([200, 409]);
      const flows = (await kit.changes(store.storeId))
        .filter((c) => c.transactionId === body.transactionId)
        .map((c) => c.flow);
      expect(flows).toEqual(cancel.status === 200 ? [] : ['payin']);
      if (approval.status === 200) successes++;
    }
    expect(await kit.balance(store.storeId)).toBe(`${2 * successes}.00`);
    await kit.assertLedgerInvariant(store.merchantId);
  });

  it('ten operators answering one payin at once: one move wins, the credit is booked once', async () => {
    const store = await kit.storeWithDetails();
    const { body } = await kit.createPayin(store.storeId, { amount: '7.00' }).expect(200);
    await kit.move('payins', body.transactionId, 'confirm', store.storeId).expect(200);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_v, i) =>
        kit.ops.setStatus(body.transactionId, i % 2 ? 'success' : 'failed'),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const won = results.find((r) => r.status === 200)!.body.status;
    expect(await kit.balance(store.storeId)).toBe(won === 'success' ? '7.00' : '0.00');
    expect(
      (await kit.history(body.transactionId)).filter((h) => h.from === 'processing'),
    ).toHaveLength(1);
    await kit.assertLedgerInvariant(store.merchantId);
  });

  describe('two expiry workers on the same database', () => {
    let second: RunningApp;
    let third: RunningApp;

    beforeAll(async () => {
      // Their own timers are parked so only the explicit runs below race (other suites' workers may join in: same guarantee).
      second = await startCore({ EXPIRY_INTERVAL_MS: '3600000' });
      third = await startCore({ EXPIRY_INTERVAL_MS: '3600000' });
    });
    afterAll(async () => {
      await second.app.close();
      await third.app.close();
    });

    it('expires every overdue payin exactly once, across batches', async () => {
      const store = await kit.storeWithDetails();
      await kit.ops.call('patch', `/stores/${store.storeId}`, { payinTtlSeconds: 2 }).expect(200);
      const confirmed: string[] = [];
      for (let i = 0; i < 5; i++) {
        const { body } = await kit.createPayin(store.storeId, { amount: '3.00' }).expect(200);
        await kit.move('payins', body.transactionId, 'confirm', store.storeId).expect(200);
        confirmed.push(body.transactionId);
      }
      const ids = [...confirmed];
      for (let i = 0; i < 125; i += 25) {
        const batch = await Promise.all(
          Array.from({ length: 25 }, () =>
            kit.createPayin(store.storeId, { amount: '3.00' }).expect(200),
          ),
        );
        ids.push(...batch.map((r) => r.body.transactionId));
      }
      await new Promise((done) => setTimeout(done, 2200));

      // What the two runs return counts every store's overdue payins on the shared test database,
      // so the count proves nothing here; the history of each of ours, below, does.
      await Promise.all([
        second.app.get(ExpiryService).runOnce(),
        third.app.get(ExpiryService).runOnce(),
      ]);
      // Another suite's core may hold some of these rows in its own expiry batch (SKIP LOCKED lets
      // ours pass them by); wait for that batch to commit before counting.
      for (let waited = 0; waited < 10_000; waited += 100) {
        const [{ pending }] = await kit.db.query(
          `SELECT count(*)::int AS pending FROM transactions WHERE store_id = $1 AND status = 'pending'`,
          [store.storeId],
        );
        if (pending === 0) break;
        await new Promise((done) => setTimeout(done, 100));
      }

      const rows: Array<{ id: string; status: string; expirations: number }> = await kit.db.query(
        `SELECT t.id, t.status, (SELECT count(*)::int FROM transaction_status_changes c WHERE c.transaction_id = t.id AND c.to_status = 'expired') AS expirations
           FROM transactions t WHERE t.store_id = $1`,
        [store.storeId],
      );
      const byId = new Map(rows.map((row) => [row.id, row]));
      for (const id of ids) {
        const row = byId.get(id)!;
        expect(row).toMatchObject(
          confirmed.includes(id)
            ? { status: 'processing', expirations: 0 }
            : { status: 'expired', expirations: 1 },
        );
      }
      const history = await kit.history(ids[10]);
      expect(history).toEqual([
        { from: null, to: 'pending', actor: 'merchant' },
        { from: 'pending', to: 'expired', actor: 'system' },
      ]);
      // An expired payin can no longer be confirmed, and nothing touched the balance.
      await kit.move('payins', ids[10], 'confirm', store.storeId).expect(409);
      expect(await kit.changes(store.storeId)).toEqual([]);
      await kit.assertLedgerInvariant(store.merchantId);
    });
  });
});
