import { randomUUID } from 'node:crypto';
import { stableHash } from '@app/crypto';
import { SigningClient } from '../support/signing-client';
import { startSystem, TestSystem } from '../support/system';
import { HousekeepingService } from '../../apps/merchant-api/src/housekeeping/housekeeping.service';
import { merchantKit } from './merchant-kit';

/** decisions.md section 3: Idempotency-Key and paymentId; retried creates never make two payins. */
describe('idempotent creates', () => {
  let system: TestSystem;
  let kit: ReturnType<typeof merchantKit>;

  beforeAll(async () => {
    system = await startSystem();
    kit = merchantKit(system);
  });
  afterAll(() => system.close());

  const countPayins = async (merchantId: number): Promise<number> =>
    (
      await kit
        .db()
        .query(
          `SELECT count(*)::int AS n FROM transactions WHERE merchant_id = $1 AND type = 'payin'`,
          [merchantId],
        )
    )[0].n;

  describe('Idempotency-Key', () => {
    it('answers a repeat with the same body with the first response, and creates one payin', async () => {
      const { store, client } = await kit.merchant();
      const key = randomUUID();
      const first = await client
        .send('post', '/api/v1/payin', { amount: 10, clientId: 1 })
        .set('Idempotency-Key', key)
        .expect(200);
      const again = await client
        .send('post', '/api/v1/payin', { amount: 10, clientId: 1 })
        .set('Idempotency-Key', key)
        .expect(200);
      expect(again.body).toEqual(first.body);
      expect(await countPayins(store.merchantId)).toBe(1);
    });

    it('treats a retry with a new nonce and timestamp as the same request', async () => {
      const { store, client } = await kit.merchant();
      const key = randomUUID();
      const now = Math.floor(Date.now() / 1000);
      const first = await client
        .send('post', '/api/v1/payin', {
          amount: 10,
          clientId: 1,
          timestamp: now,
          nonce: randomUUID(),
        })
        .set('Idempotency-Key', key)
        .expect(200);
      const again = await client
        .send('post', '/api/v1/payin', {
          amount: 10,
          clientId: 1,
          timestamp: now + 1,
          nonce: randomUUID(),
        })
        .set('Idempotency-Key', key)
        .expect(200);
      expect(again.body.data.transactionId).toBe(first.body.data.transactionId);
      expect(await countPayins(store.merchantId)).toBe(1);
    });

    it('is 422 ERROR_IDEMPOTENCY_KEY_REUSED with another body or on the other endpoint', async () => {
      const { client } = await kit.merchant({ funded: 100 });
      const key = randomUUID();
      await client
        .send('post', '/api/v1/payin', { amount: 10, clientId: 1 })
        .set('Idempotency-Key', key)
        .expect(200);
      await client
        .send('post', '/api/v1/payin', { amount: 11, clientId: 1 })
        .set('Idempotency-Key', key)
        .expect(422, { message: 'ERROR_IDEMPOTENCY_KEY_REUSED' });
      await client
        .send('post', '/api/v1/payout', { amount: 10, clientId: 1, cardNumber: '4111111111111111' })
        .set('Idempotency-Key', key)
        .expect(422, { message: 'ERROR_IDEMPOTENCY_KEY_REUSED' });
    });

    it('is 409 ERROR_IDEMPOTENCY_KEY_IN_PROGRESS while the first request still runs', async () => {
      const { store, client } = await kit.merchant();
      const key = randomUUID();
      const body = { amount: 10, clientId: 1 };
      // The first request, caught mid-flight: claimed, no response stored yet.
      await kit
        .db()
        .query(
          `INSERT INTO idempotency_keys (store_id, key, route, request_hash, expires_at) VALUES ($1, $2, 'POST /api/v1/payin', $3, now() + interval '1 day')`,
          [store.storeId, key, stableHash(body)],
        );
      await client
        .send('post', '/api/v1/payin', body)
        .set('Idempotency-Key', key)
        .expect(409, { message: 'ERROR_IDEMPOTENCY_KEY_IN_PROGRESS' });
      expect(await countPayins(store.merchantId)).toBe(0);
    });

    it('makes one payin out of concurrent duplicates', async () => {
      const { store, client } = await kit.merchant();
      const key = randomUUID();
      const results = await Promise.all(
        Array.from({ length: 6 }, () =>
          client
            .send('post', '/api/v1/payin', { amount: 10, clientId: 1 })
            .set('Idempotency-Key', key),
        ),
      );
      expect(await countPayins(store.merchantId)).toBe(1);
      const ids = new Set(
        results.filter((res) => res.status === 200).map((res) => res.body.data.transactionId),
      );
      expect(ids.size).toBe(1);
      for (const res of results) expect([200, 409]).toContain(res.status);
      for (const res of results.filter((r) => r.status === 409))
        expect(res.body.message).toBe('ERROR_IDEMPOTENCY_KEY_IN_PROGRESS');
    });

    it('is scoped to the store: another store may use the same key', async () => {
      const a = await kit.merchant();
      const b = await kit.merchant();
      const key = randomUUID();
      const first = await a.client
        .send('post', '/api/v1/payin', { amount: 10, clientId: 1 })
        .set('Idempotency-Key', key)
        .expect(200);
      const second = await b.client
        .send('post', '/api/v1/payin', { amount: 10, clientId: 1 })
        .set('Idempotency-Key', key)
        .expect(200);
      expect(second.body.data.transactionId).not.toBe(first.body.data.transactionId);
    });

    it('releases the key when the first attempt fails, so a retry runs again', async () => {
      const { store, client } = await kit.merchant();
      const key = randomUUID();
      const body = { amount: 50, clientId: 1, cardNumber: '4111111111111111' };
      await client.send('post', '/api/v1/payout', body).set('Idempotency-Key', key).expect(409);
      await kit.ops.fund(store.storeId, 50);
      const res = await client
        .send('post', '/api/v1/payout', body)
        .set('Idempotency-Key', key)
        .expect(200);
      expect(res.body.data.status).toBe('pending');
    });
  });

  describe('bookkeeping cleanup', () => {
    it('deletes expired idempotency keys and nonces, and keeps live ones', async () => {
      const { store } = await kit.merchant();
      const db = kit.db();
      await db.query(
        `INSERT INTO idempotency_keys (store_id, key, route, request_hash, expires_at) VALUES
           ($1, 'old', 'POST /api/v1/payin', 'h', now() - interval '1 second'),
           ($1, 'live', 'POST /api/v1/payin', 'h', now() + interval '1 hour')`,
        [store.storeId],
      );
      await db.query(
        `INSERT INTO used_nonces (store_id, nonce, expires_at) VALUES
           ($1, 'old', now() - interval '1 second'), ($1, 'live', now() + interval '1 hour')`,
        [store.storeId],
      );
      expect(await system.api.app.get(HousekeepingService).sweep()).toBeGreaterThanOrEqual(2);
      const keys = await db.query('SELECT key FROM idempotency_keys WHERE store_id = $1', [
        store.storeId,
      ]);
      const nonces = await db.query('SELECT nonce FROM used_nonces WHERE store_id = $1', [
        store.storeId,
      ]);
      expect(keys).toEqual([{ key: 'live' }]);
      expect(nonces).toEqual([{ nonce: 'live' }]);
    });
  });

  describe('paymentId', () => {
    it('returns the existing payin for a repeat with the same parameters, 409 with other parameters', async () => {
      const { store, client } = await kit.merchant();
      const first = await kit.payin(client, { paymentId: 'order-1', amount: 25 });
      const again = await kit.payin(client, { paymentId: 'order-1', amount: 25 });
      expect(again.transactionId).toBe(first.transactionId);
      const res = await client
        .send('post', '/api/v1/payin', { amount: 26, clientId: 42, paymentId: 'order-1' })
        .expect(409);
      expect(res.body.message).toBe('ERROR_DUPLICATE_PAYMENT_ID');
      expect(await countPayins(store.merchantId)).toBe(1);
    });

    it('makes one payin out of concurrent creates with the same paymentId', async () => {
      const { store, client } = await kit.merchant();
      const results = await Promise.all(
        Array.from({ length: 6 }, () =>
          client.send('post', '/api/v1/payin', { amount: 10, clientId: 1, paymentId: 'race-1' }),
        ),
      );
      for (const res of results) expect(res.status).toBe(200);
      expect(new Set(results.map((res) => res.body.data.transactionId)).size).toBe(1);
      expect(await countPayins(store.merchantId)).toBe(1);
    });

    it('is per store: another store of the same merchant may reuse it', async () => {
      const { store, client } = await kit.merchant();
      const sibling = await kit.ops.addStore(store.merchantId);
      const first = await kit.payin(client, { paymentId: 'shared-id' });
      const second = await kit.payin(new SigningClient(system.api.url, sibling), {
        paymentId: 'shared-id',
      });
      expect(second.transactionId).not.toBe(first.transactionId);
    });
  });
});
