import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { pathPayload, sign } from '@app/signature';
import { PNG } from '../support/documents';
import { SigningClient } from '../support/signing-client';
import { RunningApp, startMerchantApi, startSystem, TestSystem } from '../support/system';
import { merchantKit, overwriteSealedToken, untilStatus, withoutMerchantRow } from './merchant-kit';

/** merchant-api.md 5.2 and 5.3, decisions.md section 2 (order of checks) and section 3 (replay protection). */
describe('merchant authentication and access', () => {
  let system: TestSystem;
  let kit: ReturnType<typeof merchantKit>;

  beforeAll(async () => {
    system = await startSystem();
    kit = merchantKit(system);
  });
  afterAll(() => system.close());

  const api = () => request(system.api.url);

  describe('401 failures, in the order decisions.md fixes', () => {
    it('ERROR_PUBLIC_TOKEN_REQUIRED first: no header, even without a signature', async () => {
      await api()
        .post('/api/v1/payin')
        .send({ amount: 1 })
        .expect(401, { message: 'ERROR_PUBLIC_TOKEN_REQUIRED' });
      await api()
        .get('/api/v1/merchant/balance/changes')
        .set('x-public-token', '  ')
        .expect(401, { message: 'ERROR_PUBLIC_TOKEN_REQUIRED' });
    });

    it('ERROR_SIGNATURE_REQUIRED before the token is looked up: missing, empty or blank signature', async () => {
      await api()
        .post('/api/v1/payin')
        .set('x-public-token', 'pk_unknown')
        .send({ amount: 1 })
        .expect(401, { message: 'ERROR_SIGNATURE_REQUIRED' });
      await api()
        .post('/api/v1/payin')
        .set('x-public-token', 'pk_unknown')
        .send({ amount: 1, signature: '  ' })
        .expect(401, { message: 'ERROR_SIGNATURE_REQUIRED' });
      await api()
        .get('/api/v1/merchant/balance/changes')
        .set('x-public-token', 'pk_unknown')
        .query({ signature: '' })
        .expect(401, { message: 'ERROR_SIGNATURE_REQUIRED' });
    });

    it('ERROR_PUBLIC_TOKEN_INVALID for an unknown token, and for a store whose record cannot be used', async () => {
      await api()
        .post('/api/v1/payin')
        .set('x-public-token', 'pk_unknown')
        .send({ amount: 1, signature: 'ab' })
        .expect(401, { message: 'ERROR_PUBLIC_TOKEN_INVALID' });
      await api()
        .post('/api/v1/payin')
        .set('x-public-token', 'p'.repeat(500))
        .send({ amount: 1, signature: 'ab' })
        .expect(401, { message: 'ERROR_PUBLIC_TOKEN_INVALID' });
      const { store, client } = await kit.merchant();
      // Authenticated once first, so the credentials are cached: the change must still show.
      await client.get('/api/v1/merchant/balance/changes').expect(200);
      await overwriteSealedToken(kit.db(), store.storeId, 'v1.broken.record.value');
      const res = await untilStatus(() => client.get('/api/v1/merchant/balance/changes'), 401);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'ERROR_PUBLIC_TOKEN_INVALID' });
    });

    it('ERROR_SIGNATURE_INVALID for a known token and a wrong signature', async () => {
      const { store } = await kit.merchant();
      await api()
        .post('/api/v1/payin')
        .set('x-public-token', store.publicToken)
        .send({ amount: 1, clientId: 1, signature: 'f'.repeat(64) })
        .expect(401, {
          message: 'ERROR_SIGNATURE_INVALID',
        });
      await api()
        .post('/api/v1/payin')
        .set('x-public-token', store.publicToken)
        .send({ amount: 1, clientId: 1, signature: ['x'] })
        .expect(401, {
          message: 'ERROR_SIGNATURE_INVALID',
        });
    });

    it('a token rotated by the operator stops working within moments, although it was cached', async () => {
      const { store, client } = await kit.merchant();
      await client.get('/api/v1/merchant/balance/changes').expect(200);
      await kit.ops.call('post', `/stores/${store.storeId}/rotate-tokens`).expect(200);
      const res = await untilStatus(() => client.get('/api/v1/merchant/balance/changes'), 401);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'ERROR_PUBLIC_TOKEN_INVALID' });
    });
  });

  describe('access flags: 403 after authentication, before validation', () => {
    // The guard reads the flags from a cache the merchant API updates a few milliseconds after
    // the operator's change commits; the core checks them again on every write, so writes are
    // refused from the operator's reply on (the last test). Reads wait for the cache to follow.
    it('payin disabled: ERROR_ACCESS_PAYIN_DISABLED on all five payin operations; payouts still work', async () => {
      const { store, client } = await kit.merchant({ funded: 100 });
      const existing = await kit.payin(client);
      await kit.ops.setFlags(store.merchantId, { payinEnabled: false });
      const forbidden = { message: 'ERROR_ACCESS_PAYIN_DISABLED' };
      const read = () => client.onTransaction('get', 'payin', existing.transactionId);
      expect((await untilStatus(read, 403)).body).toEqual(forbidden);
      // An invalid body still gets 403: access comes before validation.
      await client.send('post', '/api/v1/payin', { amount: -1 }).expect(403, forbidden);
      await client.onTransaction('delete', 'payin', existing.transactionId).expect(403, forbidden);
      await client.onTransaction('patch', 'payin', existing.transactionId).expect(403, forbidden);
      await client
        .uploadProof(existing.transactionId, PNG, 'r.png', 'image/png')
        .expect(403, forbidden);
      expect(await kit.storedStatus(existing.transactionId)).toBe('pending');
      await kit.payout(client);
      await kit.ops.setFlags(store.merchantId, { payinEnabled: true });
      expect((await untilStatus(read, 200)).status).toBe(200);
    });

    it('payout disabled: ERROR_ACCESS_PAYOUT_DISABLED on create and cancel', async () => {
      const { store, client } = await kit.merchant({ funded: 100 });
      const payout = await kit.payout(client);
      await kit.ops.setFlags(store.merchantId, { payoutEnabled: false });
      await client
        .send('post', '/api/v1/payout', { amount: 1, clientId: 1, cardNumber: '4111111111111111' })
        .expect(403, { message: 'ERROR_ACCESS_PAYOUT_DISABLED' });
      await client
        .onTransaction('delete', 'payout', payout.transactionId)
        .expect(403, { message: 'ERROR_ACCESS_PAYOUT_DISABLED' });
      await kit.payin(client);
    });

    it('account disabled: ERROR_ACCESS_ACCOUNT_DISABLED on the balance list', async () => {
      const { store, client } = await kit.merchant();
      await kit.ops.setFlags(store.merchantId, { accountEnabled: false });
      const res = await untilStatus(
        () => client.get('/api/v1/merchant/balance/changes', { page: 0 }),
        403,
      );
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: 'ERROR_ACCESS_ACCOUNT_DISABLED' });
    });

    it('a write is refused even while the guard still holds the old flags: the core checks them too', async () => {
      const { store, client } = await kit.merchant({ funded: 100 });
      await kit.payout(client);
      // Changed without the announcement the core makes, so the guard's cache keeps "enabled".
      await kit
        .db()
        .query('UPDATE merchants SET payout_enabled = false WHERE id = $1', [store.merchantId]);
      await client
        .send('post', '/api/v1/payout', { amount: 1, clientId: 1, cardNumber: '4111111111111111' })
        .expect(403, { message: 'ERROR_ACCESS_PAYOUT_DISABLED' });
      const [{ payouts }] = await kit
        .db()
        .query(`SELECT count(*)::int AS payouts FROM transactions WHERE store_id = $1`, [
          store.storeId,
        ]);
      expect(payouts).toBe(1);
      await kit.ops.setFlags(store.merchantId, { payoutEnabled: true });
    });

    it('authentication comes first: a bad signature on a disabled merchant is 401', async () => {
      const { store } = await kit.merchant();
      await kit.ops.setFlags(store.merchantId, { payinEnabled: false });
      await api()
        .post('/api/v1/payin')
        .set('x-public-token', store.publicToken)
        .send({ amount: 1, signature: 'bad' })
        .expect(401, { message: 'ERROR_SIGNATURE_INVALID' });
    });

    it('ERROR_MERCHANT_NOT_FOUND (404) when a valid store has no merchant record', async () => {
      const { store, client } = await kit.merchant();
      await withoutMerchantRow(kit.db(), store.merchantId, async () => {
        await client
          .get('/api/v1/merchant/balance/changes')
          .expect(404, { message: 'ERROR_MERCHANT_NOT_FOUND' });
        await client
          .send('post', '/api/v1/payin', { amount: 1, clientId: 1 })
          .expect(404, { message: 'ERROR_MERCHANT_NOT_FOUND' });
      });
    });
  });

  describe('then validation (400), then the lookup (404)', () => {
    it('an invalid transaction id is 400 before any lookup; a valid unknown one is 404', async () => {
      const { client } = await kit.merchant();
      await client.onTransaction('delete', 'payin', 'nope').expect(400);
      await client
        .onTransaction('delete', 'payin', randomUUID())
        .expect(404, { message: 'ERROR_TRANSACTION_NOT_FOUND' });
    });
  });

  describe('replay protection (decisions.md section 3)', () => {
    const now = () => Math.floor(Date.now() / 1000);

    it('accepts a fresh timestamp and nonce, refuses the same nonce again with ERROR_SIGNATURE_REPLAYED', async () => {
      const { client } = await kit.merchant();
      const nonce = randomUUID();
      await client.get('/api/v1/merchant/balance/changes', { timestamp: now(), nonce }).expect(200);
      await client
        .get('/api/v1/merchant/balance/changes', { timestamp: now(), nonce, page: 2 })
        .expect(401, { message: 'ERROR_SIGNATURE_REPLAYED' });
      await client
        .get('/api/v1/merchant/balance/changes', { timestamp: now(), nonce: randomUUID() })
        .expect(200);
    });

    it('refuses a timestamp more than 300 s away with ERROR_SIGNATURE_EXPIRED', async () => {
      const { client } = await kit.merchant();
      await client
        .get('/api/v1/merchant/balance/changes', { timestamp: now() - 301, nonce: randomUUID() })
        .expect(401);
      const res = await client
        .get('/api/v1/merchant/balance/changes', { timestamp: now() + 400 })
        .expect(401);
      expect(res.body.message).toBe('ERROR_SIGNATURE_EXPIRED');
      await client.get('/api/v1/merchant/balance/changes', { timestamp: now() - 290 }).expect(200);
    });

    it('signs timestamp and nonce on path endpoints too, with transactionId from the path', async () => {
      const { store, client } = await kit.merchant();
      const created = await kit.payin(client);
      const fields = { timestamp: now(), nonce: randomUUID() };
      const signature = sign(
        { ...pathPayload(created.transactionId), ...fields },
        store.privateToken,
      );
      const send = () =>
        api()
          .patch(`/api/v1/payin/${created.transactionId}`)
          .set('x-public-token', store.publicToken)
          .send({ transactionId: created.transactionId, ...fields, signature });
      await send().expect(200);
      await send().expect(401, { message: 'ERROR_SIGNATURE_REPLAYED' });
      // Without timestamp and nonce in the signed payload, the signature no longer matches.
      await api()
        .patch(`/api/v1/payin/${created.transactionId}`)
        .set('x-public-token', store.publicToken)
        .send({
          transactionId: created.transactionId,
          ...fields,
          nonce: randomUUID(),
          signature: sign(pathPayload(created.transactionId), store.privateToken),
        })
        .expect(401, { message: 'ERROR_SIGNATURE_INVALID' });
    });

    it('an unsigned attempt cannot burn a nonce', async () => {
      const { store, client } = await kit.merchant();
      const nonce = randomUUID();
      await api()
        .get('/api/v1/merchant/balance/changes')
        .set('x-public-token', store.publicToken)
        .query({ nonce, signature: 'f'.repeat(64) })
        .expect(401);
      await client.get('/api/v1/merchant/balance/changes', { nonce }).expect(200);
    });

    it('a store that requires it refuses requests without timestamp and nonce', async () => {
      const { store, client } = await kit.merchant();
      await kit.ops
        .call('patch', `/stores/${store.storeId}`, { requireReplayProtection: true })
        .expect(200);
      const res = await client.get('/api/v1/merchant/balance/changes').expect(401);
      expect(res.body.message).toBe('ERROR_SIGNATURE_REQUIRED');
      expect(res.body.details.map((detail: { field: string }) => detail.field)).toEqual([
        'timestamp',
        'nonce',
      ]);
      await client.get('/api/v1/merchant/balance/changes', { timestamp: now() }).expect(401);
      await client
        .get('/api/v1/merchant/balance/changes', { timestamp: now(), nonce: randomUUID() })
        .expect(200);
    });

    it('holds across instances, and without Redis through the used_nonces table', async () => {
      const { store, client } = await kit.merchant();
      const second = await startMerchantApi(system.core.url);
      const noRedis = await startMerchantApi(system.core.url, { REDIS_URL: '' });
      try {
        const nonce = randomUUID();
        await client.get('/api/v1/merchant/balance/changes', { nonce }).expect(200);
        const replayed = new SigningClient(second.url, store);
        await replayed
          .get('/api/v1/merchant/balance/changes', { nonce })
          .expect(401, { message: 'ERROR_SIGNATURE_REPLAYED' });

        const pgNonce = randomUUID();
        const viaDatabase = new SigningClient(noRedis.url, store);
        await viaDatabase.get('/api/v1/merchant/balance/changes', { nonce: pgNonce }).expect(200);
        await viaDatabase
          .get('/api/v1/merchant/balance/changes', { nonce: pgNonce, page: 3 })
          .expect(401, { message: 'ERROR_SIGNATURE_REPLAYED' });
        const rows = await kit
          .db()
          .query(
            'SELECT expires_at > now() AS live FROM used_nonces WHERE store_id = $1 AND nonce = $2',
            [store.storeId, pgNonce],
          );
        expect(rows).toEqual([{ live: true }]);
      } finally {
        await closeAll(second, noRedis);
      }
    });
  });

  describe('rate limit per store (429 ERROR_RATE_LIMIT_EXCEEDED)', () => {
    it('refuses the request after the budget with Retry-After; other stores are unaffected; shared by instances', async () => {
      const limited = await startMerchantApi(system.core.url, {
        RATE_LIMIT_POINTS: '3',
        RATE_LIMIT_WINDOW_SECONDS: '60',
      });
      const twin = await startMerchantApi(system.core.url, {
        RATE_LIMIT_POINTS: '3',
        RATE_LIMIT_WINDOW_SECONDS: '60',
      });
      try {
        const { store } = await kit.merchant();
        const first = new SigningClient(limited.url, store);
        const second = new SigningClient(twin.url, store);
        // With Redis the two instances share one budget; without, each instance counts its own.
        const shared = Boolean(process.env.REDIS_URL);
        await first.get('/api/v1/merchant/balance/changes').expect(200);
        await (shared ? second : first).get('/api/v1/merchant/balance/changes').expect(200);
        await first.get('/api/v1/merchant/balance/changes').expect(200);
        const res = await (shared ? second : first)
          .get('/api/v1/merchant/balance/changes')
          .expect(429);
        if (!shared) await second.get('/api/v1/merchant/balance/changes').expect(200);
        expect(res.body).toEqual({ message: 'ERROR_RATE_LIMIT_EXCEEDED' });
        expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
        const other = (await kit.merchant()).store;
        await new SigningClient(limited.url, other)
          .get('/api/v1/merchant/balance/changes')
          .expect(200);
      } finally {
        await closeAll(limited, twin);
      }
    });
  });
});

async function closeAll(...apps: RunningApp[]): Promise<void> {
  await Promise.all(apps.map((running) => running.app.close()));
}
