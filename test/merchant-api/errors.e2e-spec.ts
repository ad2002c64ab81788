import { randomUUID } from 'node:crypto';
import request, { Response } from 'supertest';
import { stableHash } from '@app/crypto';
import { sign } from '@app/signature';
import { GIF, pngOfSize } from '../support/documents';
import { FakeCore } from '../support/fake-core';
import { SigningClient } from '../support/signing-client';
import { RunningApp, startMerchantApi, startSystem, TestSystem } from '../support/system';
import { breakSealedCard, merchantKit, withoutMerchantRow } from './merchant-kit';

/**
 * Every row of merchant-api.md section 7 and every code decisions.md adds, each produced through
 * HTTP with its status. Each error is a JSON envelope with a `message`: never an empty body,
 * HTML, a stack trace or SQL.
 */
describe('error table (merchant-api.md section 7, decisions.md section 2)', () => {
  let system: TestSystem;
  let kit: ReturnType<typeof merchantKit>;
  let fake: FakeCore;
  let viaFake: RunningApp;
  let limited: RunningApp;

  beforeAll(async () => {
    system = await startSystem();
    kit = merchantKit(system);
    fake = await FakeCore.start();
    viaFake = await startMerchantApi(fake.url);
    limited = await startMerchantApi(system.core.url, { RATE_LIMIT_POINTS: '1' });
  });
  afterAll(async () => {
    await Promise.all([viaFake.app.close(), limited.app.close()]);
    await fake.close();
    await system.close();
  });

  function expectEnvelope(res: Response, status: number, message: string): void {
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body.message).toBe(message);
    expect(Object.keys(res.body).every((key) => key === 'message' || key === 'details')).toBe(true);
    expect(res.text).not.toMatch(/<html|at [\w.]+ \(|\.ts:\d+|SELECT |INSERT /i);
  }

  const rows: Array<[string, number, () => Promise<Response>]> = [
    [
      'ERROR_PUBLIC_TOKEN_REQUIRED',
      401,
      async () => request(system.api.url).get('/api/v1/merchant/balance/changes'),
    ],
    [
      'ERROR_SIGNATURE_REQUIRED',
      401,
      async () =>
        request(system.api.url)
          .get('/api/v1/merchant/balance/changes')
          .set('x-public-token', 'pk_x'),
    ],
    [
      'ERROR_SIGNATURE_INVALID',
      401,
      async () => {
        const { store } = await kit.merchant();
        return request(system.api.url)
          .get('/api/v1/merchant/balance/changes')
          .set('x-public-token', store.publicToken)
          .query({ signature: '0'.repeat(64) });
      },
    ],
    [
      'ERROR_PUBLIC_TOKEN_INVALID',
      401,
      async () =>
        request(system.api.url)
          .get('/api/v1/merchant/balance/changes')
          .set('x-public-token', 'pk_x')
          .query({ signature: 'ab' }),
    ],
    [
      'ERROR_ACCESS_PAYIN_DISABLED',
      403,
      async () => {
        const { store, client } = await kit.merchant();
        await kit.ops.setFlags(store.merchantId, { payinEnabled: false });
        return client.send('post', '/api/v1/payin', { amount: 1, clientId: 1 });
      },
    ],
    [
      'ERROR_ACCESS_ACCOUNT_DISABLED',
      403,
      async () => {
        const { store, client } = await kit.merchant();
        await kit.ops.setFlags(store.merchantId, { accountEnabled: false });
        return client.get('/api/v1/merchant/balance/changes');
      },
    ],
    [
      'ERROR_TRANSACTION_NOT_FOUND',
      404,
      async () => (await kit.merchant()).client.onTransaction('get', 'payin', randomUUID()),
    ],
    [
      'ERROR_MERCHANT_NOT_FOUND',
      404,
      async () => {
        const { store, client } = await kit.merchant();
        let res!: Response;
        await withoutMerchantRow(kit.db(), store.merchantId, async () => {
          res = await client.get('/api/v1/merchant/balance/changes');
        });
        return res;
      },
    ],
    [
      'ERROR_INVALID_REQUEST',
      400,
      async () =>
        (await kit.merchant()).client.send('post', '/api/v1/payin', { amount: 'ten', clientId: 1 }),
    ],
    [
      'ERROR_INVALID_DOCUMENT_TYPE',
      400,
      async () => {
        const { client } = await kit.merchant();
        return client.uploadProof(
          (await kit.payin(client)).transactionId,
          GIF,
          'a.gif',
          'image/gif',
        );
      },
    ],
    [
      'ERROR_CORE_REQUEST_FAILED',
      409,
      async () => {
        const { client } = await kit.merchant();
        const { transactionId } = await kit.payin(client);
        await client.onTransaction('delete', 'payin', transactionId).expect(200);
        return client.onTransaction('delete', 'payin', transactionId);
      },
    ],
    [
      'ERROR_CORE_INVALID_RESPONSE',
      500,
      async () => {
        fake.respond({ status: 200, body: { created: true } });
        return new SigningClient(viaFake.url, (await kit.merchant()).store).send(
          'post',
          '/api/v1/payin',
          { amount: 1, clientId: 1 },
        );
      },
    ],
    [
      'ERROR_SERVER_INTERNAL_ERROR',
      500,
      async () => {
        const { client } = await kit.merchant();
        const { transactionId } = await kit.payin(client);
        await breakSealedCard(kit.db(), transactionId);
        return client.onTransaction('get', 'payin', transactionId);
      },
    ],
    // decisions.md section 2 and 3
    [
      'ERROR_ACCESS_PAYOUT_DISABLED',
      403,
      async () => {
        const { store, client } = await kit.merchant();
        await kit.ops.setFlags(store.merchantId, { payoutEnabled: false });
        return client.send('post', '/api/v1/payout', {
          amount: 1,
          clientId: 1,
          cardNumber: '4111111111111111',
        });
      },
    ],
    [
      'ERROR_FILE_TOO_LARGE',
      413,
      async () => {
        const { client } = await kit.merchant();
        return client.uploadProof(
          (await kit.payin(client)).transactionId,
          pngOfSize(10 * 1024 * 1024 + 1),
          'big.png',
          'image/png',
        );
      },
    ],
    [
      'ERROR_PAYLOAD_TOO_LARGE',
      413,
      async () => {
        const { store } = await kit.merchant();
        const body = { amount: 1, clientId: 1, padding: 'x'.repeat(1024 * 1024) };
        return request(system.api.url)
          .post('/api/v1/payin')
          .set('x-public-token', store.publicToken)
          .send({ ...body, signature: sign(body, store.privateToken) });
      },
    ],
    [
      'ERROR_RATE_LIMIT_EXCEEDED',
      429,
      async () => {
        const client = new SigningClient(limited.url, (await kit.merchant()).store);
        await client.get('/api/v1/merchant/balance/changes').expect(200);
        return client.get('/api/v1/merchant/balance/changes');
      },
    ],
    [
      'ERROR_DUPLICATE_PAYMENT_ID',
      409,
      async () => {
        const { client } = await kit.merchant();
        await kit.payin(client, { paymentId: 'dup', amount: 1 });
        return client.send('post', '/api/v1/payin', { amount: 2, clientId: 42, paymentId: 'dup' });
      },
    ],
    [
      'ERROR_IDEMPOTENCY_KEY_REUSED',
      422,
      async () => {
        const { client } = await kit.merchant();
        await client
          .send('post', '/api/v1/payin', { amount: 1, clientId: 1 })
          .set('Idempotency-Key', 'k-1')
          .expect(200);
        return client
          .send('post', '/api/v1/payin', { amount: 2, clientId: 1 })
          .set('Idempotency-Key', 'k-1');
      },
    ],
    [
      'ERROR_IDEMPOTENCY_KEY_IN_PROGRESS',
      409,
      async () => {
        const { store, client } = await kit.merchant();
        await kit
          .db()
          .query(
            `INSERT INTO idempotency_keys (store_id, key, route, request_hash, expires_at) VALUES ($1, 'k-2', 'POST /api/v1/payin', $2, now() + interval '1 hour')`,
            [store.storeId, stableHash({ amount: 1, clientId: 1 })],
          );
        return client
          .send('post', '/api/v1/payin', { amount: 1, clientId: 1 })
          .set('Idempotency-Key', 'k-2');
      },
    ],
    [
      'ERROR_SIGNATURE_EXPIRED',
      401,
      async () =>
        (await kit.merchant()).client.get('/api/v1/merchant/balance/changes', { timestamp: 1 }),
    ],
    [
      'ERROR_SIGNATURE_REPLAYED',
      401,
      async () => {
        const { client } = await kit.merchant();
        await client.get('/api/v1/merchant/balance/changes', { nonce: 'once' }).expect(200);
        return client.get('/api/v1/merchant/balance/changes', { nonce: 'once' });
      },
    ],
    ['ERROR_ROUTE_NOT_FOUND', 404, async () => request(system.api.url).get('/api/v1/nothing-here')],
  ];

  it.each(rows)('%s is answered with HTTP %i', async (message, status, produce) => {
    expectEnvelope(await produce(), status, message);
  });

  it('SERVER_INTERNAL_ERROR details stay in the log: the body is the bare code', async () => {
    const { client } = await kit.merchant();
    const { transactionId } = await kit.payin(client);
    await breakSealedCard(kit.db(), transactionId);
    const res = await client.onTransaction('get', 'payin', transactionId);
    expect(res.body).toEqual({ message: 'ERROR_SERVER_INTERNAL_ERROR' });
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  describe('what Express itself would answer in HTML', () => {
    it.each([
      ['an unknown path', () => request(system.api.url).get('/nope')],
      ['an unknown method on a known path', () => request(system.api.url).put('/api/v1/payin')],
      ['the API root', () => request(system.api.url).get('/api/v1')],
    ])('%s: 404 ERROR_ROUTE_NOT_FOUND', async (_name, call) => {
      expectEnvelope(await call(), 404, 'ERROR_ROUTE_NOT_FOUND');
    });

    it('malformed JSON, a bad percent-encoding and an unsupported body encoding: 4xx envelopes', async () => {
      const malformed = await request(system.api.url)
        .post('/api/v1/payin')
        .set('content-type', 'application/json')
        .send('{"amount":');
      expectEnvelope(malformed, 400, 'ERROR_INVALID_REQUEST');
      const badPath = await request(system.api.url).get('/api/v1/payin/%E0%A4%A');
      expect(badPath.status).toBeGreaterThanOrEqual(400);
      expect(badPath.status).toBeLessThan(500);
      expect(badPath.body.message).toMatch(/^ERROR_/);
      const encoding = await request(system.api.url)
        .post('/api/v1/payin')
        .set('content-type', 'application/json')
        .set('content-encoding', 'br-unknown')
        .send('{}');
      expect(encoding.status).toBe(415);
      expect(encoding.body.message).toBe('ERROR_INVALID_REQUEST');
    });
  });
});
