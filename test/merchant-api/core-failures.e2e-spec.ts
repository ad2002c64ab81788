import { randomUUID } from 'node:crypto';
import { PNG } from '../support/documents';
import { FakeCore } from '../support/fake-core';
import { SigningClient } from '../support/signing-client';
import { RunningApp, startMerchantApi, startSystem, TestSystem } from '../support/system';
import { merchantKit, TestMerchant } from './merchant-kit';

/**
 * Issue item 5 and decisions.md section 2: how the merchant API answers when the core fails.
 * A fake core produces the failures; stores and transactions come from the real core.
 */
describe('core failures', () => {
  let system: TestSystem;
  let kit: ReturnType<typeof merchantKit>;
  let fake: FakeCore;
  let api: RunningApp;
  let merchant: TestMerchant;
  let client: SigningClient;

  beforeAll(async () => {
    system = await startSystem();
    kit = merchantKit(system);
    fake = await FakeCore.start();
    api = await startMerchantApi(fake.url, { CORE_TIMEOUT_MS: '400' });
    merchant = await kit.merchant({ funded: 100 });
    client = new SigningClient(api.url, merchant.store);
  });
  afterAll(async () => {
    await api.app.close();
    await fake.close();
    await system.close();
  });

  const createPayin = () => client.send('post', '/api/v1/payin', { amount: 10, clientId: 1 });

  it('passes a core 5xx through with its body in details', async () => {
    fake.respond({
      status: 503,
      body: { message: 'ERROR_SERVICE_UNAVAILABLE', details: { retryIn: 5 } },
    });
    await createPayin().expect(503, {
      message: 'ERROR_CORE_REQUEST_FAILED',
      details: { message: 'ERROR_SERVICE_UNAVAILABLE', details: { retryIn: 5 } },
    });
    fake.respond({ status: 500, body: { message: 'ERROR_SERVER_INTERNAL_ERROR' } });
    await createPayin().expect(500, {
      message: 'ERROR_CORE_REQUEST_FAILED',
      details: { message: 'ERROR_SERVER_INTERNAL_ERROR' },
    });
  });

  it('passes a core 4xx with a body through, status and body', async () => {
    const body = {
      message: 'ERROR_INVALID_REQUEST',
      details: [{ field: 'amount', errors: ['too precise'] }],
    };
    fake.respond({ status: 422, body });
    await createPayin().expect(422, { message: 'ERROR_CORE_REQUEST_FAILED', details: body });
  });

  it('answers 504 when the core does not answer within CORE_TIMEOUT_MS', async () => {
    fake.respond({
      status: 200,
      body: { transactionId: randomUUID(), created: true },
      delayMs: 3000,
    });
    const started = Date.now();
    const res = await createPayin().expect(504);
    expect(res.body).toEqual({
      message: 'ERROR_CORE_REQUEST_FAILED',
      details: { reason: expect.any(String) },
    });
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('answers 502 for an HTML reply, never passing the HTML on', async () => {
    fake.respond({
      status: 502,
      contentType: 'text/html',
      body: '<html><body><h1>502 Bad Gateway</h1><p>nginx</p></body></html>',
    });
    const res = await createPayin().expect(502);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body.message).toBe('ERROR_CORE_REQUEST_FAILED');
    expect(JSON.stringify(res.body)).not.toMatch(/<|nginx/);
    fake.respond({ status: 200, contentType: 'text/html', body: '<!doctype html><p>ok</p>' });
    expect((await createPayin().expect(502)).body.message).toBe('ERROR_CORE_REQUEST_FAILED');
  });

  it('answers 500 ERROR_CORE_INVALID_RESPONSE when a create reply has no transaction id', async () => {
    fake.respond({ status: 200, body: { created: true } });
    await createPayin().expect(500, { message: 'ERROR_CORE_INVALID_RESPONSE' });
    await client
      .send('post', '/api/v1/payout', { amount: 1, clientId: 1, cardNumber: '4111111111111111' })
      .expect(500, { message: 'ERROR_CORE_INVALID_RESPONSE' });
  });

  it('answers 404 ERROR_TRANSACTION_NOT_FOUND when the core names a transaction that cannot be read back', async () => {
    fake.respond({ status: 200, body: { transactionId: randomUUID(), created: true } });
    await createPayin().expect(404, { message: 'ERROR_TRANSACTION_NOT_FOUND' });
  });

  it('answers 502 when the core drops the connection, refuses our service token, or cannot be reached', async () => {
    fake.respond({ destroy: true });
    expect((await createPayin().expect(502)).body.message).toBe('ERROR_CORE_REQUEST_FAILED');
    fake.respond({ status: 401, body: { message: 'ERROR_SERVICE_TOKEN_INVALID' } });
    expect((await createPayin().expect(502)).body.message).toBe('ERROR_CORE_REQUEST_FAILED');
    const unreachable = await startMerchantApi('http://127.0.0.1:9');
    try {
      const res = await new SigningClient(unreachable.url, merchant.store)
        .send('post', '/api/v1/payin', { amount: 10, clientId: 1 })
        .expect(502);
      expect(res.body).toEqual({
        message: 'ERROR_CORE_REQUEST_FAILED',
        details: { reason: expect.any(String) },
      });
    } finally {
      await unreachable.app.close();
    }
  });

  it('passes a failed cancel, confirm, proof and payout cancel through, and the transaction stays as it was', async () => {
    const payin = await kit.payin(merchant.client);
    const payout = await kit.payout(merchant.client);
    fake.respond({ status: 409, body: { message: 'ERROR_TRANSACTION_STATUS_CONFLICT' } });
    const conflict = {
      message: 'ERROR_CORE_REQUEST_FAILED',
      details: { message: 'ERROR_TRANSACTION_STATUS_CONFLICT' },
    };
    await client.onTransaction('delete', 'payin', payin.transactionId).expect(409, conflict);
    await client.onTransaction('patch', 'payin', payin.transactionId).expect(409, conflict);
    await client.uploadProof(payin.transactionId, PNG, 'r.png', 'image/png').expect(409, conflict);
    await client.onTransaction('delete', 'payout', payout.transactionId).expect(409, conflict);
    expect(await kit.storedStatus(payin.transactionId)).toBe('pending');
    expect(await kit.storedStatus(payout.transactionId)).toBe('pending');
  });

  it('sends the core the service token, the request id, and the calls of docs/core-api.md over reused connections', async () => {
    const payin = await kit.payin(merchant.client);
    fake.requests.length = 0;
    const connectionsBefore = fake.connections;
    fake.respond({ status: 500, body: { message: 'ERROR_SERVER_INTERNAL_ERROR' } });
    await createPayin().set('x-request-id', 'merchant-req-0001').expect(500);
    await client.onTransaction('delete', 'payin', payin.transactionId).expect(500);
    await client.onTransaction('patch', 'payin', payin.transactionId).expect(500);
    await client.uploadProof(payin.transactionId, PNG, 'receipt.png', 'image/png').expect(500);
    expect(fake.requests.map((req) => `${req.method} ${req.url}`)).toEqual([
      'POST /core/v1/payins',
      `POST /core/v1/payins/${payin.transactionId}/cancel`,
      `POST /core/v1/payins/${payin.transactionId}/confirm`,
      `POST /core/v1/payins/${payin.transactionId}/proof`,
    ]);
    for (const req of fake.requests)
      expect(req.headers.authorization).toBe(`Bearer ${api.config.secrets.coreServiceToken}`);
    expect(fake.requests[0].headers['x-request-id']).toBe('merchant-req-0001');
    expect(JSON.parse(fake.requests[0].body.toString())).toEqual({
      storeId: merchant.store.storeId,
      amount: '10.00',
      clientId: '1',
    });
    expect(JSON.parse(fake.requests[1].body.toString())).toEqual({
      storeId: merchant.store.storeId,
    });
    const proof = fake.requests[3];
    expect(proof.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(proof.body.toString('latin1')).toContain('name="storeId"');
    expect(proof.body.includes(PNG)).toBe(true);
    // One keep-alive connection carried all four calls.
    expect(fake.connections - connectionsBefore).toBeLessThanOrEqual(1);
    expect(new Set(fake.requests.map((req) => req.socketId)).size).toBe(1);
  });

  it('releases an Idempotency-Key when the core failed, so the retry reaches the core again', async () => {
    const key = randomUUID();
    fake.requests.length = 0;
    fake.respond({ status: 503, body: { message: 'ERROR_SERVICE_UNAVAILABLE' } });
    await createPayin().set('Idempotency-Key', key).expect(503);
    await createPayin().set('Idempotency-Key', key).expect(503);
    expect(fake.requests).toHaveLength(2);
  });
});
