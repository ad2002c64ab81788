import { RunningApp, startCore } from '../support/system';
import { coreKit } from './core-test-kit';

describe('core API: payouts', () => {
  let core: RunningApp;
  let kit: ReturnType<typeof coreKit>;

  beforeAll(async () => {
    core = await startCore();
    kit = coreKit(core);
  });
  afterAll(() => core.app.close());

  it('debits the balance on create and credits it back on cancel, each with one balance change', async () => {
    const store = await kit.ops.createStore();
    await kit.ops.fund(store.storeId, 100);
    const res = await kit.createPayout(store.storeId, { amount: '30.00' }).expect(200);
    expect(res.body).toEqual({ transactionId: expect.any(String), created: true });
    expect(await kit.balance(store.storeId)).toBe('70.00');
    const cancel = await kit
      .move('payouts', res.body.transactionId, 'cancel', store.storeId)
      .expect(200);
    expect(cancel.body).toEqual({ transactionId: res.body.transactionId, status: 'canceled' });
    expect(await kit.balance(store.storeId)).toBe('100.00');
    expect(
      (await kit.changes(store.storeId)).map((c) => [c.flow, c.amount, c.balanceAfter]),
    ).toEqual([
      ['adjustment', '100.00', '100.00'],
      ['payout', '-30.00', '70.00'],
      ['payout_refund', '30.00', '100.00'],
    ]);
    await kit.move('payouts', res.body.transactionId, 'cancel', store.storeId).expect(409);
    expect(await kit.balance(store.storeId)).toBe('100.00');
    expect(await kit.history(res.body.transactionId)).toEqual([
      { from: null, to: 'pending', actor: 'merchant' },
      { from: 'pending', to: 'canceled', actor: 'merchant' },
    ]);
    await kit.assertLedgerInvariant(store.merchantId);
  });

  it('refuses create and cancel with 403 ERROR_ACCESS_PAYOUT_DISABLED once the operator turns payouts off, moving no money', async () => {
    const store = await kit.ops.createStore();
    await kit.ops.fund(store.storeId, 100);
    const { body } = await kit.createPayout(store.storeId).expect(200);
    await kit.ops.setFlags(store.merchantId, { payoutEnabled: false });
    const refused = { message: 'ERROR_ACCESS_PAYOUT_DISABLED' };
    await kit.createPayout(store.storeId).expect(403, refused);
    await kit.move('payouts', body.transactionId, 'cancel', store.storeId).expect(403, refused);
    expect(await kit.balance(store.storeId)).toBe('90.00');
    await kit.ops.setFlags(store.merchantId, { payoutEnabled: true });
    await kit.move('payouts', body.transactionId, 'cancel', store.storeId).expect(200);
    expect(await kit.balance(store.storeId)).toBe('100.00');
    await kit.assertLedgerInvariant(store.merchantId);
  });

  it('refuses a payout beyond the balance with 409 ERROR_INSUFFICIENT_BALANCE and writes nothing', async () => {
    const store = await kit.ops.createStore();
    await kit.ops.fund(store.storeId, 10);
    const res = await kit
      .createPayout(store.storeId, { amount: '10.01', externalId: 'too-much' })
      .expect(409);
    expect(res.body).toEqual({ message: 'ERROR_INSUFFICIENT_BALANCE' });
    const [{ count }] = await kit.db.query(
      `SELECT count(*)::int AS count FROM transactions WHERE store_id = $1`,
      [store.storeId],
    );
    expect(count).toBe(0);
    expect(await kit.changes(store.storeId)).toHaveLength(1);
    // The refused externalId is free: nothing of the failed attempt remains.
    await kit.createPayout(store.storeId, { amount: '10.00', externalId: 'too-much' }).expect(200);
    expect(await kit.balance(store.storeId)).toBe('0.00');
    await kit.assertLedgerInvariant(store.merchantId);
  });

  it('operator: pending → processing → failed refunds; → success keeps the debit; other moves are 409', async () => {
    const store = await kit.ops.createStore();
    await kit.ops.fund(store.storeId, 50);
    const failing = await kit.createPayout(store.storeId, { amount: '20.00' }).expect(200);
    const paid = await kit.createPayout(store.storeId, { amount: '5.00' }).expect(200);
    expect((await kit.ops.setStatus(paid.body.transactionId, 'success')).status).toBe(409);
    for (const id of [failing.body.transactionId, paid.body.transactionId]) {
      expect((await kit.ops.setStatus(id, 'processing')).body).toEqual({
        transactionId: id,
        status: 'processing',
      });
    }
    await kit.move('payouts', failing.body.transactionId, 'cancel', store.storeId).expect(409);
    expect((await kit.ops.setStatus(failing.body.transactionId, 'failed')).status).toBe(200);
    expect((await kit.ops.setStatus(paid.body.transactionId, 'success')).status).toBe(200);
    expect((await kit.ops.setStatus(paid.body.transactionId, 'failed')).status).toBe(409);
    expect((await kit.ops.setStatus(paid.body.transactionId, 'expired')).status).toBe(409);
    expect(await kit.balance(store.storeId)).toBe('45.00');
    expect((await kit.changes(store.storeId)).map((c) => c.flow)).toEqual([
      'adjustment',
      'payout',
      'payout',
      'payout_refund',
    ]);
    await kit.assertLedgerInvariant(store.merchantId);
  });

  it('validates the card (13 to 19 digits, Luhn) and the amount, naming the field', async () => {
    const store = await kit.ops.createStore();
    await kit.ops.fund(store.storeId, 10);
    for (const cardNumber of [
      '4111111111111112',
      '411111111111',
      '4111 1111 1111 1111',
      4111111111111111,
    ]) {
      const res = await kit.createPayout(store.storeId, { cardNumber }).expect(400);
      expect(res.body.details[0].field).toBe('cardNumber');
      expect(JSON.stringify(res.body)).not.toContain('4111111111111112');
    }
    const amount = await kit.createPayout(store.storeId, { amount: '0' }).expect(400);
    expect(amount.body.details[0].field).toBe('amount');
    await kit.createPayout(2147483647).expect(404, { message: 'ERROR_STORE_NOT_FOUND' });
  });

  it('stores the card sealed and masked', async () => {
    const store = await kit.ops.createStore();
    await kit.ops.fund(store.storeId, 10);
    const { body } = await kit
      .createPayout(store.storeId, { cardNumber: '5555555555554444' })
      .expect(200);
    const [row] = await kit.db.query(
      'SELECT pay_card_number_enc, pay_card_number_masked, request_hash FROM transactions WHERE id = $1',
      [body.transactionId],
    );
    expect(row.pay_card_number_masked).toBe('555555******4444');
    expect(row.pay_card_number_enc).not.toContain('5555555555554444');
    const { sha256Hex } = await import('@app/crypto');
    expect(row.request_hash).not.toBe(sha256Hex('5555555555554444'));
  });

  it('is idempotent by externalId: same parameters answer the first payout without a second debit; others are 409', async () => {
    const store = await kit.ops.createStore();
    await kit.ops.fund(store.storeId, 10);
    const first = await kit
      .createPayout(store.storeId, { externalId: 'p-1', amount: '4.00' })
      .expect(200);
    const again = await kit
      .createPayout(store.storeId, { externalId: 'p-1', amount: '4.00' })
      .expect(200);
    expect(again.body).toEqual({ transactionId: first.body.transactionId, created: false });
    await kit
      .createPayout(store.storeId, {
        externalId: 'p-1',
        amount: '4.00',
        cardNumber: '5555555555554444',
      })
      .expect(409, { message: 'ERROR_DUPLICATE_PAYMENT_ID' });
    const concurrent = await Promise.all(
      Array.from({ length: 8 }, () =>
        kit.createPayout(store.storeId, { externalId: 'p-2', amount: '1.00' }),
      ),
    );
    expect(new Set(concurrent.map((r) => r.body.transactionId)).size).toBe(1);
    expect(await kit.balance(store.storeId)).toBe('5.00');
    await kit.assertLedgerInvariant(store.merchantId);
  });

  it('answers 404 for another store’s payout and for a payin id on the payout path', async () => {
    const store = await kit.storeWithDetails();
    const other = await kit.ops.createStore();
    await kit.ops.fund(store.storeId, 10);
    const { body } = await kit.createPayout(store.storeId).expect(200);
    await kit
      .move('payouts', body.transactionId, 'cancel', other.storeId)
      .expect(404, { message: 'ERROR_TRANSACTION_NOT_FOUND' });
    const payin = await kit.createPayin(store.storeId).expect(200);
    await kit
      .move('payouts', payin.body.transactionId, 'cancel', store.storeId)
      .expect(404, { message: 'ERROR_TRANSACTION_NOT_FOUND' });
  });
});
