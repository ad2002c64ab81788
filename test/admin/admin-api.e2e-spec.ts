import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { admin } from '../support/factories';
import { RunningApp, startCore } from '../support/system';

describe('admin API: merchants, stores, adjustments, payment details, audit', () => {
  let core: RunningApp;
  let ops: ReturnType<typeof admin>;
  let db: DataSource;

  beforeAll(async () => {
    core = await startCore();
    ops = admin({ core });
    db = core.app.get(DataSource);
  });
  afterAll(() => core.app.close());

  const auditRows = (targetType: string, targetId: string | number) =>
    db.query(
      'SELECT actor, action, payload FROM admin_audit_log WHERE target_type = $1 AND target_id = $2 ORDER BY id',
      [targetType, String(targetId)],
    );

  describe('authentication', () => {
    it('refuses a request without a bearer token with ERROR_ADMIN_TOKEN_REQUIRED', async () => {
      const res = await request(core.url)
        .post('/admin/v1/merchants')
        .send({ name: 'x' })
        .expect(401);
      expect(res.body).toEqual({ message: 'ERROR_ADMIN_TOKEN_REQUIRED' });
      await request(core.url)
        .get('/admin/v1/audit')
        .set('authorization', 'Basic abc')
        .expect(401, { message: 'ERROR_ADMIN_TOKEN_REQUIRED' });
    });

    it('refuses a wrong token with ERROR_ADMIN_TOKEN_INVALID and writes nothing', async () => {
      const name = `intruder ${randomUUID()}`;
      const res = await request(core.url)
        .post('/admin/v1/merchants')
        .set('authorization', 'Bearer adm_wrong_token_123456')
        .send({ name })
        .expect(401);
      expect(res.body).toEqual({ message: 'ERROR_ADMIN_TOKEN_INVALID' });
      const [{ count }] = await db.query(
        'SELECT count(*)::int AS count FROM merchants WHERE name = $1',
        [name],
      );
      expect(count).toBe(0);
    });

    it('refuses the core service token on the admin API', async () => {
      await request(core.url)
        .get('/admin/v1/audit')
        .set('authorization', `Bearer ${core.config.secrets.coreServiceToken}`)
        .expect(401, { message: 'ERROR_ADMIN_TOKEN_INVALID' });
    });

    it('names the operator from x-admin-actor, defaulting to admin, and refuses a malformed name', async () => {
      const token = core.config.secrets.adminToken;
      const res = await request(core.url)
        .post('/admin/v1/merchants')
        .set('authorization', `Bearer ${token}`)
        .send({ name: 'no actor' })
        .expect(201);
      expect((await auditRows('merchant', res.body.id))[0].actor).toBe('admin');
      const bad = await request(core.url)
        .post('/admin/v1/merchants')
        .set('authorization', `Bearer ${token}`)
        .set('x-admin-actor', 'a b<script>')
        .send({ name: 'x' })
        .expect(400);
      expect(bad.body.message).toBe('ERROR_INVALID_REQUEST');
      expect(bad.body.details[0].field).toBe('x-admin-actor');
    });
  });

  describe('merchants', () => {
    it('creates a merchant with all access enabled and audits it', async () => {
      const res = await ops.call('post', '/merchants', { name: 'Acme' }).expect(201);
      expect(res.body).toMatchObject({
        id: expect.any(Number),
        name: 'Acme',
        payinEnabled: true,
        payoutEnabled: true,
        accountEnabled: true,
        stores: [],
      });
      const rows = await auditRows('merchant', res.body.id);
      expect(rows).toEqual([
        { actor: 'e2e', action: 'merchant.create', payload: { name: 'Acme' } },
      ]);
    });

    it('sets access flags, leaves the others alone, and records before and after', async () => {
      const { body } = await ops.call('post', '/merchants', { name: 'Flags' }).expect(201);
      const res = await ops
        .call('patch', `/merchants/${body.id}`, { payoutEnabled: false })
        .expect(200);
      expect(res.body).toMatchObject({
        payinEnabled: true,
        payoutEnabled: false,
        accountEnabled: true,
      });
      const read = await ops.call('get', `/merchants/${body.id}`).expect(200);
      expect(read.body.payoutEnabled).toBe(false);
      const rows = await auditRows('merchant', body.id);
      expect(rows[1]).toMatchObject({
        action: 'merchant.flags',
        payload: { before: { payoutEnabled: true }, changes: { payoutEnabled: false } },
      });
    });

    it('validates bodies and ids: 400 naming the field, 404 for an unknown merchant', async () => {
      const res = await ops.call('post', '/merchants', { name: '' }).expect(400);
      expect(res.body.details.map((d: { field: string }) => d.field)).toEqual(['name']);
      const flags = await ops.call('patch', '/merchants/1', { payinEnabled: 'yes' }).expect(400);
      expect(flags.body.details[0].field).toBe('payinEnabled');
      await ops.call('patch', '/merchants/1', { payinEnabled: null }).expect(400);
      await ops
        .call('get', '/merchants/2147483647')
        .expect(404, { message: 'ERROR_MERCHANT_NOT_FOUND' });
      await ops.call('get', '/merchants/abc').expect(400);
      await ops
        .call('post', '/merchants/2147483647/stores', { name: 's' })
        .expect(404, { message: 'ERROR_MERCHANT_NOT_FOUND' });
    });
  });

  describe('stores', () => {
    it('creates a store with tokens, a Standard Webhooks secret and the default currency; secrets are sealed at rest', async () => {
      const { body: merchant } = await ops
        .call('post', '/merchants', { name: 'Stores' })
        .expect(201);
      const res = await ops
        .call('post', `/merchants/${merchant.id}/stores`, { name: 'Shop' })
        .expect(201);
      expect(res.body).toMatchObject({
        id: expect.any(Number),
        merchantId: merchant.id,
        publicToken: expect.stringMatching(/^pk_/),
        privateToken: expect.stringMatching(/^sk_/),
        webhookSecret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
        currency: core.config.core.defaultCurrency,
        exchangeRate: '1',
        payinFeePercent: '0.00',
        balance: '0.00',
      });
      expect(Buffer.from(res.body.webhookSecret.slice(6), 'base64')).toHaveLength(24);
      const [row] = await db.query(
        'SELECT private_token_enc, webhook_secret_enc FROM stores WHERE id = $1',
        [res.body.id],
      );
      expect(row.private_token_enc).not.toContain(res.body.privateToken);
      expect(row.webhook_secret_enc).not.toContain(res.body.webhookSecret.slice(6));
      const audit = await auditRows('store', res.body.id);
      expect(JSON.stringify(audit)).not.toContain(res.body.privateToken);
      const eur = await ops
        .call('post', `/merchants/${merchant.id}/stores`, { name: 'Euro', currency: 'EUR' })
        .expect(201);
      expect(eur.body.currency).toBe('EUR');
      await ops
        .call('post', `/merchants/${merchant.id}/stores`, { name: 'Bad', currency: 'euro' })
        .expect(400);
    });

    it('shows a store with its tokens', async () => {
      const store = await ops.createStore();
      const res = await ops.call('get', `/stores/${store.storeId}`).expect(200);
      expect(res.body).toMatchObject({
        id: store.storeId,
        publicToken: store.publicToken,
        privateToken: store.privateToken,
      });
      await ops.call('get', '/stores/2147483647').expect(404, { message: 'ERROR_STORE_NOT_FOUND' });
    });

    it('rotates both tokens: the new pair differs and is what the store now holds', async () => {
      const store = await ops.createStore();
      const res = await ops.call('post', `/stores/${store.storeId}/rotate-tokens`).expect(200);
      expect(res.body.publicToken).not.toBe(store.publicToken);
      expect(res.body.privateToken).not.toBe(store.privateToken);
      const [{ count }] = await db.query(
        'SELECT count(*)::int AS count FROM stores WHERE public_token = $1',
        [store.publicToken],
      );
      expect(count).toBe(0);
      expect((await ops.call('get', `/stores/${store.storeId}`)).body.privateToken).toBe(
        res.body.privateToken,
      );
      expect(
        (await auditRows('store', store.storeId)).map((r: { action: string }) => r.action),
      ).toEqual(['store.create', 'store.rotate-tokens']);
    });

    it('updates settings and validates them', async () => {
      const store = await ops.createStore();
      const res = await ops
        .call('patch', `/stores/${store.storeId}`, {
          currency: 'EUR',
          exchangeRate: '1.25',
          payinFeePercent: '2.5',
          payinTtlSeconds: 60,
          requireReplayProtection: true,
        })
        .expect(200);
      expect(res.body).toMatchObject({
        currency: 'EUR',
        exchangeRate: '1.25',
        payinFeePercent: '2.50',
        payinTtlSeconds: 60,
        effectivePayinTtlSeconds: 60,
        requireReplayProtection: true,
      });
      const reset = await ops
        .call('patch', `/stores/${store.storeId}`, { payinTtlSeconds: null })
        .expect(200);
      expect(reset.body.effectivePayinTtlSeconds).toBe(core.config.core.payinTtlSeconds);
      for (const bad of [
        { exchangeRate: '0' },
        { exchangeRate: '-1' },
        { payinFeePercent: '100' },
        { payinTtlSeconds: 0 },
        { currency: null },
        { requireReplayProtection: 'yes' },
      ]) {
        const r = await ops.call('patch', `/stores/${store.storeId}`, bad).expect(400);
        expect(r.body.details[0].field).toBe(Object.keys(bad)[0]);
      }
    });
  });

  describe('adjustments', () => {
    it('credits and debits with a balance-change record each, and refuses to go below zero', async () => {
      const store = await ops.createStore();
      const credit = await ops
        .call('post', `/stores/${store.storeId}/adjustments`, { amount: 100.5, comment: 'top up' })
        .expect(201);
      expect(credit.body).toMatchObject({
        storeId: store.storeId,
        flow: 'adjustment',
        amount: '100.50',
        balanceBefore: '0.00',
        balanceAfter: '100.50',
        seq: 1,
        comment: 'top up',
      });
      const debit = await ops
        .call('post', `/stores/${store.storeId}/adjustments`, { amount: '-0.50' })
        .expect(201);
      expect(debit.body).toMatchObject({
        amount: '-0.50',
        balanceBefore: '100.50',
        balanceAfter: '100.00',
        seq: 2,
      });
      const refused = await ops
        .call('post', `/stores/${store.storeId}/adjustments`, { amount: '-100.01' })
        .expect(409);
      expect(refused.body).toEqual({ message: 'ERROR_INSUFFICIENT_BALANCE' });
      const [{ count }] = await db.query(
        'SELECT count(*)::int AS count FROM balance_changes WHERE store_id = $1',
        [store.storeId],
      );
      expect(count).toBe(2);
      expect((await ops.call('get', `/stores/${store.storeId}`)).body.balance).toBe('100.00');
      const audit = await auditRows('store', store.storeId);
      expect(audit.filter((r: { action: string }) => r.action === 'store.adjust')).toHaveLength(2);
    });

    it('refuses zero, more than 2 decimals, floats and non-numbers', async () => {
      const store = await ops.createStore();
      for (const amount of [0, '0.00', '1.234', 0.1 + 0.2, 'abc', '1e3', null, '-']) {
        const res = await ops
          .call('post', `/stores/${store.storeId}/adjustments`, { amount })
          .expect(400);
        expect(res.body.details[0].field).toBe('amount');
      }
      await ops
        .call('post', '/stores/2147483647/adjustments', { amount: 1 })
        .expect(404, { message: 'ERROR_STORE_NOT_FOUND' });
    });
  });

  describe('payment details', () => {
    it('adds details with the card sealed and masked, lists and updates them, audits without the full number', async () => {
      const { body: merchant } = await ops
        .call('post', '/merchants', { name: 'Details' })
        .expect(201);
      const res = await ops
        .call('post', '/payment-details', {
          cardName: 'R',
          bankName: 'B',
          cardNumber: '4111111111111111',
          minAmount: '10',
          maxAmount: 500,
          maxPending: 2,
          merchantId: merchant.id,
        })
        .expect(201);
      expect(res.body).toMatchObject({
        id: expect.any(Number),
        cardNumber: '411111******1111',
        minAmount: '10.00',
        maxAmount: '500.00',
        maxPending: 2,
        merchantId: merchant.id,
        enabled: true,
        pendingCount: 0,
      });
      const [row] = await db.query('SELECT card_number_enc FROM payment_details WHERE id = $1', [
        res.body.id,
      ]);
      expect(row.card_number_enc).not.toContain('4111111111111111');
      const listed = await ops
        .call('get', `/payment-details?merchantId=${merchant.id}`)
        .expect(200);
      expect(listed.body.map((d: { id: number }) => d.id)).toEqual([res.body.id]);
      const updated = await ops
        .call('patch', `/payment-details/${res.body.id}`, {
          enabled: false,
          maxPending: null,
          maxAmount: null,
        })
        .expect(200);
      expect(updated.body).toMatchObject({
        enabled: false,
        maxPending: null,
        maxAmount: null,
        minAmount: '10.00',
      });
      const audit = await auditRows('payment_detail', res.body.id);
      expect(audit.map((r: { action: string }) => r.action)).toEqual([
        'payment-details.add',
        'payment-details.update',
      ]);
      expect(JSON.stringify(audit)).not.toContain('4111111111111111');
    });

    it('refuses bad input: an inverted range, bad card, unknown merchant or detail', async () => {
      await ops.call('post', '/payment-details', { minAmount: '10', maxAmount: '5' }).expect(400);
      await ops.call('post', '/payment-details', { cardNumber: '4111-1111' }).expect(400);
      await ops
        .call('post', '/payment-details', { cardName: 'x', merchantId: 2147483647 })
        .expect(404, { message: 'ERROR_MERCHANT_NOT_FOUND' });
      await ops
        .call('patch', '/payment-details/2147483647', { enabled: false })
        .expect(404, { message: 'ERROR_PAYMENT_DETAIL_NOT_FOUND' });
      const id = await ops.addPaymentDetails({ minAmount: '10' });
      await ops.call('patch', `/payment-details/${id}`, { maxAmount: '5' }).expect(400);
      await ops.call('patch', `/payment-details/${id}`, { enabled: null }).expect(400);
    });
  });

  describe('audit log', () => {
    it('lists entries newest first, filtered by target, with a bounded limit', async () => {
      const store = await ops.createStore();
      await ops.fund(store.storeId, 5);
      const res = await ops
        .call('get', `/audit?targetType=store&targetId=${store.storeId}&limit=10`)
        .expect(200);
      expect(res.body.items.map((i: { action: string }) => i.action)).toEqual([
        'store.adjust',
        'store.create',
      ]);
      expect(res.body.items[0]).toMatchObject({
        actor: 'e2e',
        targetType: 'store',
        targetId: String(store.storeId),
        at: expect.any(String),
      });
      const limited = await ops.call('get', '/audit?limit=1').expect(200);
      expect(limited.body.items).toHaveLength(1);
      await ops.call('get', '/audit?limit=0').expect(400);
      await ops.call('get', '/audit?limit=501').expect(400);
    });
  });
});
