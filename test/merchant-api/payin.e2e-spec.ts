import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { pathPayload, sign } from '@app/signature';
import { SigningClient } from '../support/signing-client';
import { startSystem, TestSystem } from '../support/system';
import { merchantKit } from './merchant-kit';

const TIMESTAMP = /^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}$/;

describe('payin endpoints (merchant-api.md 4.1 to 4.4)', () => {
  let system: TestSystem;
  let kit: ReturnType<typeof merchantKit>;

  beforeAll(async () => {
    system = await startSystem();
    kit = merchantKit(system);
  });
  afterAll(() => system.close());

  describe('create', () => {
    it('creates a pending payin and answers 200 with the stored TransactionPayload', async () => {
      const { store, client } = await kit.merchant();
      const res = await client
        .send('post', '/api/v1/payin', {
          amount: 100.5,
          clientId: 42,
          description: 'Order #1',
          clientEmail: 'payer@example.com',
          clientIp: '203.0.113.7',
          clientName: 'Jane Payer',
          language: 'en',
          webhookMethod: 'POST',
          webhookUrl: 'https://shop.example.com/hook',
        })
        .expect(200);
      expect(res.body.message).toBe('OK');
      const data = res.body.data;
      expect(data).toMatchObject({
        merchantId: store.merchantId,
        status: 'pending',
        amount: 100.5,
        description: 'Order #1',
        isTest: false,
        client: { id: '42', email: 'payer@example.com', ip: '203.0.113.7', name: 'Jane Payer' },
        proof: { ping: false, file: null },
      });
      expect(data.transactionId).toMatch(/^[0-9a-f-]{36}$/);
      for (const field of ['createdAt', 'updatedAt', 'expiresAt'])
        expect(data[field]).toMatch(TIMESTAMP);
      expect(typeof data.exchangeRate).toBe('number');
      expect(typeof data.currency).toBe('string');
      expect(data.paymentPage).toBe(
        `${system.api.config.core.publicBaseUrl}/pay/${data.transactionId}`,
      );
      expect(data.payment.cardNumber).toBe('411111******1111');
      expect(data).not.toHaveProperty('externalId');
      expect(data).not.toHaveProperty('paymentMessengerBot');
      expect(await kit.storedStatus(data.transactionId)).toBe('pending');
    });

    it('returns externalId for a paymentId and a messenger bot link for a tgbotId', async () => {
      const { client } = await kit.merchant();
      const data = await kit.payin(client, { paymentId: 'order-77', tgbotId: 'demo_pay_bot' });
      expect(data.externalId).toBe('order-77');
      expect(data.paymentMessengerBot).toBe(
        `${system.api.config.core.messengerBotBaseUrl}/demo_pay_bot?tid=${data.transactionId}`,
      );
    });

    it('marks isTest 1 as a test payment', async () => {
      const { client } = await kit.merchant();
      expect((await kit.payin(client, { isTest: 1 })).isTest).toBe(true);
      expect((await kit.payin(client, { isTest: 0 })).isTest).toBe(false);
    });

    it('accepts and ignores fields beyond the table, which still count in the signature', async () => {
      const { client } = await kit.merchant();
      const data = await kit.payin(client, { cartId: 'c-9', meta: { items: [1, 2] }, flag: true });
      expect(data).not.toHaveProperty('cartId');
      expect(data).not.toHaveProperty('meta');
    });

    it('passes the core 409 through when no receiving details are available', async () => {
      const store = await kit.ops.createStore({ name: `no details ${randomUUID()}` });
      // A payment detail reserved for this merchant but disabled: it may draw only from its own, and it has none usable.
      const detailId = await kit.ops.addPaymentDetails({ merchantId: store.merchantId });
      await kit.ops.call('patch', `/payment-details/${detailId}`, { enabled: false }).expect(200);
      const res = await new SigningClient(system.api.url, store)
        .send('post', '/api/v1/payin', { amount: 5, clientId: 1 })
        .expect(409);
      expect(res.body).toEqual({
        message: 'ERROR_CORE_REQUEST_FAILED',
        details: expect.objectContaining({ message: 'ERROR_NO_PAYMENT_DETAILS_AVAILABLE' }),
      });
    });
  });

  describe('read', () => {
    it('reads a payin by id with transactionId and signature in the query', async () => {
      const { client } = await kit.merchant();
      const created = await kit.payin(client, { paymentId: 'read-1' });
      const res = await client.onTransaction('get', 'payin', created.transactionId).expect(200);
      expect(res.body).toEqual({ message: 'OK', data: created });
    });

    it('is 404 ERROR_TRANSACTION_NOT_FOUND for an unknown id and for a payout id', async () => {
      const { client } = await kit.merchant({ funded: 100 });
      await client
        .onTransaction('get', 'payin', randomUUID())
        .expect(404, { message: 'ERROR_TRANSACTION_NOT_FOUND' });
      const payout = await kit.payout(client);
      await client
        .onTransaction('get', 'payin', payout.transactionId)
        .expect(404, { message: 'ERROR_TRANSACTION_NOT_FOUND' });
    });

    it('is 400 for a transactionId that is not a UUID, naming the field', async () => {
      const { client } = await kit.merchant();
      const res = await client.onTransaction('get', 'payin', 'not-a-uuid').expect(400);
      expect(res.body.message).toBe('ERROR_INVALID_REQUEST');
      expect(res.body.details).toEqual([
        { field: 'transactionId', errors: ['transactionId must be a UUID'] },
      ]);
    });

    it('is 400 when the echoed transactionId names another transaction than the path', async () => {
      const { client, store } = await kit.merchant();
      const created = await kit.payin(client);
      const res = await request(system.api.url)
        .get(`/api/v1/payin/${created.transactionId}`)
        .set('x-public-token', store.publicToken)
        .query({
          transactionId: randomUUID(),
          signature: sign(pathPayload(created.transactionId), store.privateToken),
        })
        .expect(400);
      expect(res.body.details).toEqual([
        { field: 'transactionId', errors: [expect.stringContaining('path')] },
      ]);
    });
  });

  describe('cancel and confirm', () => {
    it('cancels a pending payin: the response and every later read show canceled', async () => {
      const { client } = await kit.merchant();
      const created = await kit.payin(client);
      await client.onTransaction('get', 'payin', created.transactionId).expect(200);
      const res = await client.onTransaction('delete', 'payin', created.transactionId).expect(200);
      expect(res.body.data.status).toBe('canceled');
      expect(
        (await client.onTransaction('get', 'payin', created.transactionId).expect(200)).body.data
          .status,
      ).toBe('canceled');
    });

    it('passes the core 409 through when the state forbids the move, and changes nothing', async () => {
      const { client } = await kit.merchant();
      const created = await kit.payin(client);
      await client.onTransaction('delete', 'payin', created.transactionId).expect(200);
      const res = await client.onTransaction('patch', 'payin', created.transactionId).expect(409);
      expect(res.body).toEqual({
        message: 'ERROR_CORE_REQUEST_FAILED',
        details: expect.objectContaining({ message: 'ERROR_TRANSACTION_STATUS_CONFLICT' }),
      });
      expect(await kit.storedStatus(created.transactionId)).toBe('canceled');
    });

    it('confirms a pending payin to processing; a test payin settles at once, failed for .13 cents', async () => {
      const { client } = await kit.merchant();
      const real = await kit.payin(client);
      expect(
        (await client.onTransaction('patch', 'payin', real.transactionId).expect(200)).body.data
          .status,
      ).toBe('processing');
      const test = await kit.payin(client, { isTest: 1, amount: 10.5 });
      expect(
        (await client.onTransaction('patch', 'payin', test.transactionId).expect(200)).body.data
          .status,
      ).toBe('success');
      const failing = await kit.payin(client, { isTest: 1, amount: 10.13 });
      expect(
        (await client.onTransaction('patch', 'payin', failing.transactionId).expect(200)).body.data
          .status,
      ).toBe('failed');
    });

    it('shows an operator decision after confirm (success) on the next read', async () => {
      const { client } = await kit.merchant();
      const created = await kit.payin(client);
      await client.onTransaction('patch', 'payin', created.transactionId).expect(200);
      await client.onTransaction('get', 'payin', created.transactionId).expect(200);
      await kit.ops
        .setStatus(created.transactionId, 'success')
        .then((res) => expect(res.status).toBe(200));
      const res = await client.onTransaction('get', 'payin', created.transactionId).expect(200);
      expect(res.body.data.status).toBe('success');
    });
  });
});
