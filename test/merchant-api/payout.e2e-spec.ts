import { randomUUID } from 'node:crypto';
import { startSystem, TestSystem } from '../support/system';
import { merchantKit } from './merchant-kit';

/** merchant-api.md 4.6 and 4.7, decisions.md section 4 (payout states and balance moves). */
describe('payout endpoints', () => {
  let system: TestSystem;
  let kit: ReturnType<typeof merchantKit>;

  beforeAll(async () => {
    system = await startSystem();
    kit = merchantKit(system);
  });
  afterAll(() => system.close());

  it('creates a payout: 200, the stored TransactionPayload, the card masked, the balance debited', async () => {
    const { store, client } = await kit.merchant({ funded: 500 });
    const res = await client
      .send('post', '/api/v1/payout', {
        amount: 120.25,
        clientId: 9,
        cardNumber: '5555555555554444',
        description: 'refund',
      })
      .expect(200);
    expect(res.body.message).toBe('OK');
    expect(res.body.data).toMatchObject({
      merchantId: store.merchantId,
      status: 'pending',
      amount: 120.25,
      description: 'refund',
      client: { id: '9' },
      payment: { cardNumber: '555555******4444' },
      proof: { ping: false, file: null },
      paymentPage: null,
      expiresAt: null,
    });
    expect(JSON.stringify(res.body)).not.toContain('5555555555554444');
    const ledger = await client.get('/api/v1/merchant/balance/changes').expect(200);
    expect(ledger.body.data.items[0]).toMatchObject({
      flow: 'payout',
      amount: -120.25,
      balanceBefore: 500,
      balanceAfter: 379.75,
      storeId: store.storeId,
    });
  });

  it('passes the core 409 through when the balance is too small, and writes nothing', async () => {
    const { client } = await kit.merchant({ funded: 10 });
    const res = await client
      .send('post', '/api/v1/payout', {
        amount: 10.01,
        clientId: 1,
        cardNumber: '4111111111111111',
      })
      .expect(409);
    expect(res.body).toEqual({
      message: 'ERROR_CORE_REQUEST_FAILED',
      details: expect.objectContaining({ message: 'ERROR_INSUFFICIENT_BALANCE' }),
    });
    const ledger = await client.get('/api/v1/merchant/balance/changes').expect(200);
    expect(ledger.body.data.total).toBe(1);
    await client
      .send('post', '/api/v1/payout', { amount: 10, clientId: 1, cardNumber: '4111111111111111' })
      .expect(200);
  });

  it('cancels a pending payout and credits it back; a second cancel is a core 409 passed through', async () => {
    const { client } = await kit.merchant({ funded: 100 });
    const payout = await kit.payout(client, { amount: 40 });
    const res = await client.onTransaction('delete', 'payout', payout.transactionId).expect(200);
    expect(res.body.data.status).toBe('canceled');
    const ledger = await client.get('/api/v1/merchant/balance/changes').expect(200);
    expect(
      ledger.body.data.items
        .slice(0, 2)
        .map((item: { flow: string; amount: number }) => [item.flow, item.amount]),
    ).toEqual([
      ['payout_refund', 40],
      ['payout', -40],
    ]);
    const again = await client.onTransaction('delete', 'payout', payout.transactionId).expect(409);
    expect(again.body.details.message).toBe('ERROR_TRANSACTION_STATUS_CONFLICT');
  });

  it('cannot cancel a payout the operator already moved to processing', async () => {
    const { client } = await kit.merchant({ funded: 100 });
    const payout = await kit.payout(client);
    expect((await kit.ops.setStatus(payout.transactionId, 'processing')).status).toBe(200);
    await client.onTransaction('delete', 'payout', payout.transactionId).expect(409);
    expect(await kit.storedStatus(payout.transactionId)).toBe('processing');
  });

  it('is 404 for an unknown id and for a payin id on the payout path', async () => {
    const { client } = await kit.merchant({ funded: 100 });
    await client
      .onTransaction('delete', 'payout', randomUUID())
      .expect(404, { message: 'ERROR_TRANSACTION_NOT_FOUND' });
    const payin = await kit.payin(client);
    await client
      .onTransaction('delete', 'payout', payin.transactionId)
      .expect(404, { message: 'ERROR_TRANSACTION_NOT_FOUND' });
    expect(await kit.storedStatus(payin.transactionId)).toBe('pending');
  });

  it('returns externalId for a paymentId and never makes two payouts for one', async () => {
    const { client } = await kit.merchant({ funded: 100 });
    const first = await kit.payout(client, { paymentId: 'po-1', amount: 5 });
    const again = await kit.payout(client, { paymentId: 'po-1', amount: 5 });
    expect(first.externalId).toBe('po-1');
    expect(again.transactionId).toBe(first.transactionId);
    const clash = await client
      .send('post', '/api/v1/payout', {
        amount: 6,
        clientId: 42,
        cardNumber: '4111111111111111',
        paymentId: 'po-1',
      })
      .expect(409);
    expect(clash.body.message).toBe('ERROR_DUPLICATE_PAYMENT_ID');
    const ledger = await client.get('/api/v1/merchant/balance/changes').expect(200);
    expect(
      ledger.body.data.items.filter((item: { flow: string }) => item.flow === 'payout'),
    ).toHaveLength(1);
  });
});
