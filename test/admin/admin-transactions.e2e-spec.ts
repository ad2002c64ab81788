import { randomUUID } from 'node:crypto';
import { RunningApp, startCore } from '../support/system';
import { coreKit } from '../core/core-test-kit';

describe('admin API: transactions', () => {
  let core: RunningApp;
  let kit: ReturnType<typeof coreKit>;

  beforeAll(async () => {
    core = await startCore();
    kit = coreKit(core);
  });
  afterAll(() => core.app.close());

  it('shows the full record, the receiving card unmasked, with its status history and balance changes', async () => {
    const store = await kit.storeWithDetails({ cardNumber: '5555555555554444' });
    const { body } = await kit
      .createPayin(store.storeId, { externalId: 'ord-1', clientEmail: 'p@x.io', amount: '12.30' })
      .expect(200);
    await kit.move('payins', body.transactionId, 'confirm', store.storeId).expect(200);
    await kit.ops.setStatus(body.transactionId, 'success');
    const res = await kit.ops.call('get', `/transactions/${body.transactionId}`).expect(200);
    expect(res.body).toMatchObject({
      id: body.transactionId,
      type: 'payin',
      merchantId: store.merchantId,
      storeId: store.storeId,
      externalId: 'ord-1',
      status: 'success',
      amount: '12.30',
      currency: 'USD',
      exchangeRate: '1',
      client: { id: '42', email: 'p@x.io' },
      payment: { cardNumber: '5555555555554444', cardName: 'TEST RECEIVER' },
      paymentDetailId: store.detailId,
    });
    expect(res.body.statusHistory).toEqual([
      { from: null, to: 'pending', actor: 'merchant', at: expect.any(String) },
      { from: 'pending', to: 'processing', actor: 'merchant', at: expect.any(String) },
      { from: 'processing', to: 'success', actor: 'operator:e2e', at: expect.any(String) },
    ]);
    expect(res.body.balanceChanges).toEqual([
      expect.objectContaining({ flow: 'payin', amount: '12.30', balanceAfter: '12.30' }),
    ]);
  });

  it('shows a payout’s recipient card unmasked to the operator', async () => {
    const store = await kit.ops.createStore();
    await kit.ops.fund(store.storeId, 5);
    const { body } = await kit
      .createPayout(store.storeId, { amount: '5.00', cardNumber: '4012888888881881' })
      .expect(200);
    const res = await kit.ops.call('get', `/transactions/${body.transactionId}`).expect(200);
    expect(res.body).toMatchObject({
      type: 'payout',
      status: 'pending',
      payment: { cardNumber: '4012888888881881' },
    });
    expect(res.body.balanceChanges.map((c: { flow: string }) => c.flow)).toEqual(['payout']);
  });

  it('audits every operator move in the same transaction and leaves refused moves unaudited', async () => {
    const store = await kit.storeWithDetails();
    const { body } = await kit.createPayin(store.storeId).expect(200);
    const refused = await kit.ops.setStatus(body.transactionId, 'success');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ message: 'ERROR_TRANSACTION_STATUS_CONFLICT' });
    await kit.move('payins', body.transactionId, 'confirm', store.storeId).expect(200);
    expect((await kit.ops.setStatus(body.transactionId, 'proof_requested')).status).toBe(200);
    expect((await kit.ops.setStatus(body.transactionId, 'failed')).status).toBe(200);
    const audit = await kit.ops
      .call('get', `/audit?targetType=transaction&targetId=${body.transactionId}`)
      .expect(200);
    expect(audit.body.items.map((i: { details: object }) => i.details)).toEqual([
      { type: 'payin', from: 'proof_requested', to: 'failed' },
      { type: 'payin', from: 'processing', to: 'proof_requested' },
    ]);
  });

  it('validates the target status, and answers 404 for an unknown or malformed id', async () => {
    const store = await kit.storeWithDetails();
    const { body } = await kit.createPayin(store.storeId).expect(200);
    const bad = await kit.ops.setStatus(body.transactionId, 'paid');
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].field).toBe('status');
    expect((await kit.ops.setStatus(randomUUID(), 'success')).status).toBe(404);
    await kit.ops
      .call('get', `/transactions/${randomUUID()}`)
      .expect(404, { message: 'ERROR_TRANSACTION_NOT_FOUND' });
    await kit.ops
      .call('get', '/transactions/123')
      .expect(404, { message: 'ERROR_TRANSACTION_NOT_FOUND' });
  });
});
