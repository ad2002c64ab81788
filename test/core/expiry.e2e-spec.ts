import { ExpiryService } from '../../apps/core/src/expiry/expiry.service';
import { RunningApp, startCore } from '../support/system';
import { coreKit } from './core-test-kit';

describe('payin expiry', () => {
  it('expires an unpaid payin by itself shortly after its store TTL, and frees its payment detail', async () => {
    const core = await startCore({ EXPIRY_INTERVAL_MS: '200' });
    try {
      const kit = coreKit(core);
      const store = await kit.storeWithDetails({ maxPending: 1 });
      await kit.ops.call('patch', `/stores/${store.storeId}`, { payinTtlSeconds: 1 }).expect(200);
      const { body } = await kit.createPayin(store.storeId).expect(200);
      await kit
        .createPayin(store.storeId)
        .expect(409, { message: 'ERROR_NO_PAYMENT_DETAILS_AVAILABLE' });
      const deadline = Date.now() + 8000;
      let status = 'pending';
      while (status === 'pending' && Date.now() < deadline) {
        await new Promise((done) => setTimeout(done, 100));
        status = (await kit.ops.call('get', `/transactions/${body.transactionId}`).expect(200)).body
          .status;
      }
      expect(status).toBe('expired');
      await kit.createPayin(store.storeId).expect(200);
    } finally {
      await core.app.close();
    }
  });

  it('catches up after downtime: payins overdue while no worker ran expire on the next run', async () => {
    let core: RunningApp | undefined = await startCore({ EXPIRY_INTERVAL_MS: '3600000' });
    const kit = coreKit(core);
    const store = await kit.storeWithDetails();
    await kit.ops.call('patch', `/stores/${store.storeId}`, { payinTtlSeconds: 1 }).expect(200);
    const created = await Promise.all(
      Array.from({ length: 5 }, () => kit.createPayin(store.storeId)),
    );
    const notYet = await kit.ops
      .call('patch', `/stores/${store.storeId}`, { payinTtlSeconds: 3600 })
      .expect(200);
    expect(notYet.body.payinTtlSeconds).toBe(3600);
    const fresh = await kit.createPayin(store.storeId).expect(200);
    await core.app.close();
    core = undefined;

    await new Promise((done) => setTimeout(done, 1500));
    const restarted = await startCore({ EXPIRY_INTERVAL_MS: '3600000' });
    try {
      await restarted.app.get(ExpiryService).runOnce();
      // Other suites' cores share this database and run the expiry job too: a batch of theirs may
      // hold these rows (SKIP LOCKED lets runOnce pass them by) and commit a moment later.
      const statuses = async () => {
        const rows: Array<{ id: string; status: string }> = await coreKit(restarted).db.query(
          'SELECT id, status FROM transactions WHERE store_id = $1',
          [store.storeId],
        );
        return new Map(rows.map((row) => [row.id, row.status]));
      };
      let status = await statuses();
      const overdue = () =>
        created.filter((res) => status.get(res.body.transactionId) !== 'expired');
      for (const deadline = Date.now() + 3000; overdue().length > 0 && Date.now() < deadline;) {
        await new Promise((done) => setTimeout(done, 50));
        status = await statuses();
      }
      for (const res of created) expect(status.get(res.body.transactionId)).toBe('expired');
      expect(status.get(fresh.body.transactionId)).toBe('pending');
    } finally {
      await restarted.app.close();
    }
  });
});
