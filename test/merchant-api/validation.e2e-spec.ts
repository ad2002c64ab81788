import request from 'supertest';
import { sign } from '@app/signature';
import type { SigningClient } from '../support/signing-client';
import { startSystem, TestSystem } from '../support/system';
import { merchantKit } from './merchant-kit';

/**
 * Every limit and validation rule of merchant-api.md 4.2, 4.6, 4.8 and section 8, with the
 * bounds of decisions.md section 3, at its boundary: the last accepted value and the first
 * refused one. Refusals are 400 ERROR_INVALID_REQUEST with `details` naming each field.
 */
describe('request validation at the boundaries', () => {
  let system: TestSystem;
  let kit: ReturnType<typeof merchantKit>;
  let payins: SigningClient;
  let payouts: SigningClient;

  beforeAll(async () => {
    system = await startSystem();
    kit = merchantKit(system);
    payins = (await kit.merchant()).client;
    payouts = (await kit.merchant({ funded: 1_000_000 })).client;
  });
  afterAll(() => system.close());

  const base = { amount: 100, clientId: 42 };
  const createPayin = (fields: Record<string, unknown>) =>
    payins.send('post', '/api/v1/payin', { ...base, ...fields });

  async function refused(response: request.Test, ...fields: string[]): Promise<void> {
    const res = await response;
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('ERROR_INVALID_REQUEST');
    expect(res.body.details.map((detail: { field: string }) => detail.field).sort()).toEqual(
      [...fields].sort(),
    );
  }

  describe('payin create (4.2)', () => {
    it('description: 500 characters accepted, 501 refused', async () => {
      await createPayin({ description: 'd'.repeat(500) }).expect(200);
      await refused(createPayin({ description: 'd'.repeat(501) }), 'description');
    });

    it('language: 16 characters accepted, 17 refused', async () => {
      await createPayin({ language: 'l'.repeat(16) }).expect(200);
      await refused(createPayin({ language: 'l'.repeat(17) }), 'language');
    });

    it('amount: 0.01 and 1,000,000,000 accepted; 0, negative, over the maximum, 3 decimals, a string, missing refused', async () => {
      expect((await createPayin({ amount: 0.01 }).expect(200)).body.data.amount).toBe(0.01);
      expect((await createPayin({ amount: 1_000_000_000 }).expect(200)).body.data.amount).toBe(
        1_000_000_000,
      );
      expect((await createPayin({ amount: 999.99 }).expect(200)).body.data.amount).toBe(999.99);
      for (const amount of [0, -1, 1_000_000_000.01, 1.005, '100', null])
        await refused(createPayin({ amount }), 'amount');
      await refused(payins.send('post', '/api/v1/payin', { clientId: 42 }), 'amount');
    });

    it('clientId: a positive integer; 0, fractions, strings and a missing one refused', async () => {
      expect((await createPayin({ clientId: 1 }).expect(200)).body.data.client.id).toBe('1');
      for (const clientId of [0, -3, 1.5, '42'])
        await refused(createPayin({ clientId }), 'clientId');
      await refused(payins.send('post', '/api/v1/payin', { amount: 5 }), 'clientId');
    });

    it('isTest: 0 or 1 only', async () => {
      await createPayin({ isTest: 1 }).expect(200);
      for (const isTest of [2, '1', true]) await refused(createPayin({ isTest }), 'isTest');
    });

    it('webhookMethod: get or post in any case', async () => {
      await createPayin({ webhookMethod: 'GET', webhookUrl: 'https://shop.example.com/h' }).expect(
        200,
      );
      await createPayin({ webhookMethod: 'Post', webhookUrl: 'https://shop.example.com/h' }).expect(
        200,
      );
      await refused(createPayin({ webhookMethod: 'put' }), 'webhookMethod');
    });

    it('URLs: absolute http or https only', async () => {
      await createPayin({
        successUrl: 'http://localhost:8080/ok',
        failureUrl: 'https://shop.example.com/fail?x=1',
        webhookUrl: 'https://shop.example.com/h',
      }).expect(200);
      await refused(createPayin({ successUrl: 'ftp://shop.example.com/ok' }), 'successUrl');
      await refused(createPayin({ failureUrl: '/relative/path' }), 'failureUrl');
      await refused(createPayin({ webhookUrl: 'javascript:alert(1)' }), 'webhookUrl');
    });

    it('clientEmail and clientIp must be an e-mail and an IPv4 or IPv6 address', async () => {
      await createPayin({ clientEmail: 'a@b.io', clientIp: '2001:db8::1' }).expect(200);
      await refused(createPayin({ clientEmail: 'not-an-email' }), 'clientEmail');
      await refused(createPayin({ clientIp: '999.1.1.1' }), 'clientIp');
    });

    it('tgbotId: 3 to 64 letters, digits or underscores', async () => {
      await createPayin({ tgbotId: 'abc' }).expect(200);
      await createPayin({ tgbotId: 'b'.repeat(64) }).expect(200);
      await refused(createPayin({ tgbotId: 'ab' }), 'tgbotId');
      await refused(createPayin({ tgbotId: 'b'.repeat(65) }), 'tgbotId');
      await refused(createPayin({ tgbotId: 'bad-name' }), 'tgbotId');
    });

    it('paymentId: up to 255 characters; gate and paymentMethod up to 100; clientName up to 255', async () => {
      await createPayin({
        paymentId: 'p'.repeat(255),
        gate: 'g'.repeat(100),
        paymentMethod: 'm'.repeat(100),
        clientName: 'n'.repeat(255),
      }).expect(200);
      await refused(createPayin({ paymentId: 'p'.repeat(256) }), 'paymentId');
      await refused(
        createPayin({ gate: 'g'.repeat(101), paymentMethod: 'm'.repeat(101) }),
        'gate',
        'paymentMethod',
      );
      await refused(createPayin({ clientName: 'n'.repeat(256) }), 'clientName');
    });

    it('names every offending field at once', async () => {
      await refused(
        createPayin({ amount: 0, clientId: 'x', language: 'l'.repeat(17), webhookMethod: 'put' }),
        'amount',
        'clientId',
        'language',
        'webhookMethod',
      );
    });

    it('treats empty and whitespace-only optional strings as absent, as the signature does', async () => {
      const data = (
        await createPayin({ description: '   ', paymentId: '', language: '' }).expect(200)
      ).body.data;
      expect(data.description).toBeNull();
      expect(data).not.toHaveProperty('externalId');
    });

    it('refuses malformed JSON with 400 and a body over 1 MB with 413 ERROR_PAYLOAD_TOO_LARGE', async () => {
      const { store } = await kit.merchant();
      const malformed = await request(system.api.url)
        .post('/api/v1/payin')
        .set('x-public-token', store.publicToken)
        .set('content-type', 'application/json')
        .send('{"amount": 10,')
        .expect(400);
      expect(malformed.body.message).toBe('ERROR_INVALID_REQUEST');
      const big = { ...base, description: 'x'.repeat(1024 * 1024) };
      const res = await request(system.api.url)
        .post('/api/v1/payin')
        .set('x-public-token', store.publicToken)
        .send({ ...big, signature: sign(big, store.privateToken) })
        .expect(413);
      expect(res.body).toEqual({ message: 'ERROR_PAYLOAD_TOO_LARGE' });
    });
  });

  describe('payout create (4.6)', () => {
    const createPayout = (fields: Record<string, unknown>) =>
      payouts.send('post', '/api/v1/payout', {
        amount: 1,
        clientId: 7,
        cardNumber: '4111111111111111',
        ...fields,
      });

    it('cardNumber: 13 and 19 Luhn-valid digits accepted; 12, 20, a Luhn failure, spaces and a number refused', async () => {
      expect(
        (await createPayout({ cardNumber: '4222222222222' }).expect(200)).body.data.payment
          .cardNumber,
      ).toBe('422222***2222');
      expect(
        (await createPayout({ cardNumber: '6011000990139424124' }).expect(200)).body.data.payment
          .cardNumber,
      ).toBe('601100*********4124');
      for (const cardNumber of [
        '422222222222',
        '60110009901394241230',
        '4111111111111112',
        '4111 1111 1111 1111',
        4111111111111111,
      ]) {
        await refused(createPayout({ cardNumber }), 'cardNumber');
      }
      await refused(
        payouts.send('post', '/api/v1/payout', { amount: 1, clientId: 7 }),
        'cardNumber',
      );
    });

    it('amount and clientId follow the payin rules', async () => {
      await createPayout({ amount: 0.01 }).expect(200);
      for (const amount of [0, 1_000_000_000.01, 2.345, '5'])
        await refused(createPayout({ amount }), 'amount');
      for (const clientId of [0, 2.5, '7']) await refused(createPayout({ clientId }), 'clientId');
    });

    it('description up to 500 characters, paymentId up to 255', async () => {
      await createPayout({ description: 'd'.repeat(500), paymentId: 'p'.repeat(255) }).expect(200);
      await refused(
        createPayout({ description: 'd'.repeat(501), paymentId: 'p'.repeat(256) }),
        'description',
        'paymentId',
      );
    });
  });

  describe('balance list (4.8)', () => {
    const list = (query: Record<string, string | number>) =>
      payins.get('/api/v1/merchant/balance/changes', query);

    it('page: integers from 1; 0, negatives, fractions and words refused', async () => {
      await list({ page: 1 }).expect(200);
      for (const page of [0, -1, '1.5', 'abc', '1e2']) await refused(list({ page }), 'page');
    });

    it('limit: 1 to 100 accepted, 0 and 101 refused', async () => {
      expect((await list({ limit: 1 }).expect(200)).body.data.limit).toBe(1);
      expect((await list({ limit: 100 }).expect(200)).body.data.limit).toBe(100);
      await refused(list({ limit: 0 }), 'limit');
      await refused(list({ limit: 101 }), 'limit');
    });

    it('defaults: page 1, limit 20', async () => {
      const res = await list({}).expect(200);
      expect(res.body.data).toMatchObject({ page: 1, limit: 20 });
    });
  });

  describe('Idempotency-Key header', () => {
    it('accepts 255 characters and refuses 256', async () => {
      await createPayin({}).set('Idempotency-Key', 'k'.repeat(255)).expect(200);
      const res = await createPayin({}).set('Idempotency-Key', 'k'.repeat(256)).expect(400);
      expect(res.body.details).toEqual([
        { field: 'Idempotency-Key', errors: [expect.any(String)] },
      ]);
    });
  });
});
