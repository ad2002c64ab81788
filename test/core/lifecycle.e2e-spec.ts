import { RunningApp, startCore } from '../support/system';
import { coreKit, PNG } from './core-test-kit';

/** Issue #4 "Done when", through the core API and the admin API as the merchant API and an operator drive them. */
describe('core lifecycle (issue #4 done-when)', () => {
  let core: RunningApp;
  let kit: ReturnType<typeof coreKit>;

  beforeAll(async () => {
    core = await startCore({ EXPIRY_INTERVAL_MS: '200' });
    kit = coreKit(core);
  });
  afterAll(() => core.app.close());

  it('a payin is created, confirmed, proved, approved by the operator, and shows as a payin balance change', async () => {
    const store = await kit.storeWithDetails();
    const { body } = await kit
      .createPayin(store.storeId, { amount: '250.00', externalId: 'order-100' })
      .expect(200);
    const id = body.transactionId;
    await kit
      .move('payins', id, 'confirm', store.storeId)
      .expect(200, { transactionId: id, status: 'processing' });
    expect((await kit.ops.setStatus(id, 'proof_requested')).body).toEqual({
      transactionId: id,
      status: 'proof_requested',
    });
    await kit
      .uploadProof(id, store.storeId, PNG)
      .expect(200, { transactionId: id, status: 'processing' });
    expect((await kit.ops.setStatus(id, 'success')).body).toEqual({
      transactionId: id,
      status: 'success',
    });

    const record = await kit.ops.call('get', `/transactions/${id}`).expect(200);
    expect(record.body.statusHistory.map((h: { to: string }) => h.to)).toEqual([
      'pending',
      'processing',
      'proof_requested',
      'processing',
      'success',
    ]);
    expect(record.body.proof).toMatchObject({ requested: true, mimeType: 'image/png' });
    expect(await kit.changes(store.storeId)).toEqual([
      {
        flow: 'payin',
        amount: '250.00',
        balanceBefore: '0.00',
        balanceAfter: '250.00',
        transactionId: id,
      },
    ]);
    await kit.assertLedgerInvariant(store.merchantId);
  });

  it('a payout is funded, created, cancelled and refunded', async () => {
    const store = await kit.ops.createStore();
    await kit.ops.fund(store.storeId, 80);
    const { body } = await kit.createPayout(store.storeId, { amount: '80.00' }).expect(200);
    expect(await kit.balance(store.storeId)).toBe('0.00');
    await kit
      .move('payouts', body.transactionId, 'cancel', store.storeId)
      .expect(200, { transactionId: body.transactionId, status: 'canceled' });
    expect(
      (await kit.changes(store.storeId)).map((c) => [c.flow, c.amount, c.balanceAfter]),
    ).toEqual([
      ['adjustment', '80.00', '80.00'],
      ['payout', '-80.00', '0.00'],
      ['payout_refund', '80.00', '80.00'],
    ]);
    await kit.assertLedgerInvariant(store.merchantId);
  });

  it('an unpaid payin expires by itself', async () => {
    const store = await kit.storeWithDetails();
    await kit.ops.call('patch', `/stores/${store.storeId}`, { payinTtlSeconds: 1 }).expect(200);
    const { body } = await kit.createPayin(store.storeId).expect(200);
    const deadline = Date.now() + 8000;
    let history = await kit.history(body.transactionId);
    while (history.length < 2 && Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 100));
      history = await kit.history(body.transactionId);
    }
    expect(history).toEqual([
      { from: null, to: 'pending', actor: 'merchant' },
      { from: 'pending', to: 'expired', actor: 'system' },
    ]);
  });
});
