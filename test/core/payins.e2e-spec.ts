import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { RunningApp, startCore } from '../support/system';
import { coreKit, GIF, PDF, PNG } from './core-test-kit';

describe('core API: payins', () => {
  let core: RunningApp;
  let kit: ReturnType<typeof coreKit>;

  beforeAll(async () => {
    core = await startCore();
    kit = coreKit(core);
  });
  afterAll(() => core.app.close());

  describe('authentication', () => {
    it('refuses a missing, wrong or admin bearer token with 401 ERROR_SERVICE_TOKEN_INVALID', async () => {
      await request(core.url)
        .post('/core/v1/payins')
        .send({})
        .expect(401, { message: 'ERROR_SERVICE_TOKEN_INVALID' });
      await request(core.url)
        .post('/core/v1/payins')
        .set('authorization', 'Bearer svc_not_the_token_at_all')
        .send({})
        .expect(401, { message: 'ERROR_SERVICE_TOKEN_INVALID' });
      await request(core.url)
        .post('/core/v1/payins')
        .set('authorization', `Bearer ${core.config.secrets.adminToken}`)
        .send({})
        .expect(401, { message: 'ERROR_SERVICE_TOKEN_INVALID' });
    });
  });

  describe('create', () => {
    it('creates a pending payin with details from the pool, the store TTL, and a creation history row', async () => {
      const store = await kit.storeWithDetails({
        cardName: 'POOL CARD',
        phoneNumber: '+100',
        ibanNumber: 'DE00TEST',
      });
      await kit.ops.call('patch', `/stores/${store.storeId}`, { payinTtlSeconds: 600 }).expect(200);
      const res = await kit
        .createPayin(store.storeId, {
          description: 'order 1',
          clientEmail: 'a@b.co',
          webhookUrl: 'http://127.0.0.1:9/hook',
        })
        .expect(200);
      expect(res.body).toEqual({
        transactionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        created: true,
      });

      const [row] = await kit.db.query(
        `SELECT status, amount::text, currency, payment_detail_id, pay_card_name, pay_card_number_masked, pay_card_number_enc, pay_phone_number, pay_iban_number,
                webhook_method, extract(epoch FROM expires_at - created_at)::int AS ttl
           FROM transactions WHERE id = $1`,
        [res.body.transactionId],
      );
      expect(row).toMatchObject({
        status: 'pending',
        amount: '100.00',
        currency: 'USD',
        payment_detail_id: store.detailId,
        pay_card_name: 'POOL CARD',
      });
      expect(row).toMatchObject({
        pay_card_number_masked: '411111******1111',
        pay_phone_number: '+100',
        pay_iban_number: 'DE00TEST',
        webhook_method: 'post',
        ttl: 600,
      });
      expect(row.pay_card_number_enc).not.toContain('4111111111111111');
      expect(await kit.history(res.body.transactionId)).toEqual([
        { from: null, to: 'pending', actor: 'merchant' },
      ]);
    });

    it('falls back to PAYIN_TTL_SECONDS when the store sets no TTL', async () => {
      const store = await kit.storeWithDetails();
      const res = await kit.createPayin(store.storeId).expect(200);
      const [row] = await kit.db.query(
        'SELECT extract(epoch FROM expires_at - created_at)::int AS ttl FROM transactions WHERE id = $1',
        [res.body.transactionId],
      );
      expect(row.ttl).toBe(core.config.core.payinTtlSeconds);
    });

    it('validates the body and names each offending field', async () => {
      const store = await kit.storeWithDetails();
      const res = await kit
        .createPayin(store.storeId, {
          amount: '1.234',
          clientId: 'abc',
          webhookMethod: 'GET',
          webhookUrl: 'ftp://x',
          clientEmail: 'nope',
          clientIp: '999.1.1.1',
          tgbotId: 'a b',
        })
        .expect(400);
      expect(res.body.message).toBe('ERROR_INVALID_REQUEST');
      const fields = res.body.details.map((d: { field: string }) => d.field).sort();
      expect(fields).toEqual([
        'amount',
        'clientEmail',
        'clientId',
        'clientIp',
        'tgbotId',
        'webhookMethod',
        'webhookUrl',
      ]);
      for (const amount of ['0', '0.00', '-1', '1000000000.01', '1e3']) {
        const bad = await kit.createPayin(store.storeId, { amount }).expect(400);
        expect(bad.body.details[0].field).toBe('amount');
      }
      await kit.createPayin(store.storeId, { amount: '1000000000.00' }).expect(200);
      await kit.post('/payins', { amount: '1.00', clientId: '1' }).expect(400);
    });

    it('answers 404 ERROR_STORE_NOT_FOUND for an unknown store', async () => {
      await kit.createPayin(2147483647).expect(404, { message: 'ERROR_STORE_NOT_FOUND' });
    });
  });

  describe('idempotent create by externalId', () => {
    it('answers the existing payin for a repeat with the same parameters, 409 for other parameters', async () => {
      const store = await kit.storeWithDetails();
      const first = await kit
        .createPayin(store.storeId, { externalId: 'order-7', description: 'x' })
        .expect(200);
      const again = await kit
        .createPayin(store.storeId, { externalId: 'order-7', description: 'x' })
        .expect(200);
      expect(again.body).toEqual({ transactionId: first.body.transactionId, created: false });
      const other = await kit
        .createPayin(store.storeId, { externalId: 'order-7', description: 'x', amount: '100.01' })
        .expect(409);
      expect(other.body).toEqual({ message: 'ERROR_DUPLICATE_PAYMENT_ID' });
      // Another store may use the same externalId.
      const elsewhere = await kit.storeWithDetails();
      const theirs = await kit
        .createPayin(elsewhere.storeId, { externalId: 'order-7', description: 'x' })
        .expect(200);
      expect(theirs.body.created).toBe(true);
    });

    it('answers a repeat with the first payin even when the pool has nothing left for a new one', async () => {
      const store = await kit.storeWithDetails({ maxPending: 1 });
      const first = await kit.createPayin(store.storeId, { externalId: 'full-pool' }).expect(200);
      await kit
        .createPayin(store.storeId, { externalId: 'other' })
        .expect(409, { message: 'ERROR_NO_PAYMENT_DETAILS_AVAILABLE' });
      const repeat = await kit.createPayin(store.storeId, { externalId: 'full-pool' }).expect(200);
      expect(repeat.body).toEqual({ transactionId: first.body.transactionId, created: false });
      await kit
        .createPayin(store.storeId, { externalId: 'full-pool', description: 'changed' })
        .expect(409, { message: 'ERROR_DUPLICATE_PAYMENT_ID' });
    });

    it('makes exactly one payin out of concurrent duplicates', async () => {
      const store = await kit.storeWithDetails();
      const results = await Promise.all(
        Array.from({ length: 12 }, () => kit.createPayin(store.storeId, { externalId: 'same' })),
      );
      expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
      const ids = new Set(results.map((r) => r.body.transactionId));
      expect(ids.size).toBe(1);
      expect(results.filter((r) => r.body.created)).toHaveLength(1);
      const [{ count }] = await kit.db.query(
        'SELECT count(*)::int AS count FROM transactions WHERE store_id = $1',
        [store.storeId],
      );
      expect(count).toBe(1);
    });
  });

  describe('payment details pool', () => {
    it('answers 409 ERROR_NO_PAYMENT_DETAILS_AVAILABLE and writes nothing when no detail fits the amount', async () => {
      const store = await kit.storeWithDetails({ minAmount: '10', maxAmount: '50' });
      const res = await kit.createPayin(store.storeId, { amount: '50.01' }).expect(409);
      expect(res.body).toEqual({ message: 'ERROR_NO_PAYMENT_DETAILS_AVAILABLE' });
      await kit.createPayin(store.storeId, { amount: '9.99' }).expect(409);
      const [{ count }] = await kit.db.query(
        'SELECT count(*)::int AS count FROM transactions WHERE store_id = $1',
        [store.storeId],
      );
      expect(count).toBe(0);
      await kit.createPayin(store.storeId, { amount: '50.00' }).expect(200);
    });

    it('respects max pending and frees the slot when the payin leaves pending', async () => {
      const store = await kit.storeWithDetails({ maxPending: 1 });
      const first = await kit.createPayin(store.storeId).expect(200);
      await kit
        .createPayin(store.storeId)
        .expect(409, { message: 'ERROR_NO_PAYMENT_DETAILS_AVAILABLE' });
      await kit.move('payins', first.body.transactionId, 'cancel', store.storeId).expect(200);
      await kit.createPayin(store.storeId).expect(200);
    });

    it('never overshoots max pending under concurrent creates', async () => {
      const store = await kit.storeWithDetails({ maxPending: 3 });
      const results = await Promise.all(
        Array.from({ length: 15 }, () => kit.createPayin(store.storeId)),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(3);
      expect(
        results
          .filter((r) => r.status === 409)
          .every((r) => r.body.message === 'ERROR_NO_PAYMENT_DETAILS_AVAILABLE'),
      ).toBe(true);
      expect(results.filter((r) => r.status === 409)).toHaveLength(12);
    });

    it('spreads payins across details, least recently assigned first, and skips disabled ones', async () => {
      const store = await kit.storeWithDetails();
      const second = await kit.ops.addPaymentDetails({
        merchantId: store.merchantId,
        cardNumber: '5555555555554444',
      });
      const third = await kit.ops.addPaymentDetails({
        merchantId: store.merchantId,
        cardNumber: '4012888888881881',
      });
      await kit.ops.call('patch', `/payment-details/${third}`, { enabled: false }).expect(200);
      const used: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await kit.createPayin(store.storeId).expect(200);
        const [row] = await kit.db.query(
          'SELECT payment_detail_id FROM transactions WHERE id = $1',
          [res.body.transactionId],
        );
        used.push(row.payment_detail_id);
      }
      expect(used).toEqual([store.detailId, second, store.detailId, second]);
    });

    it('50 concurrent creates on a pool without limits all succeed and spread across the details', async () => {
      const store = await kit.storeWithDetails();
      const others = await Promise.all(
        ['5555555555554444', '4012888888881881'].map((cardNumber) =>
          kit.ops.addPaymentDetails({ merchantId: store.merchantId, cardNumber }),
        ),
      );
      const results = await Promise.all(
        Array.from({ length: 50 }, () => kit.createPayin(store.storeId)),
      );
      expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
      const rows: Array<{ id: number; count: number }> = await kit.db.query(
        `SELECT payment_detail_id AS id, count(*)::int AS count FROM transactions
          WHERE store_id = $1 GROUP BY payment_detail_id`,
        [store.storeId],
      );
      const counts = new Map(rows.map((row) => [row.id, row.count]));
      // An even spread is 16 or 17 each; other suites drawing rotation tickets meanwhile blur it.
      for (const id of [store.detailId, ...others])
        expect(counts.get(id)).toBeGreaterThanOrEqual(10);
    });

    it('concurrent creates on a limited and an unlimited detail: all succeed, the limit holds', async () => {
      const store = await kit.storeWithDetails({ maxPending: 5 });
      const unlimited = await kit.ops.addPaymentDetails({
        merchantId: store.merchantId,
        cardNumber: '5555555555554444',
      });
      const results = await Promise.all(
        Array.from({ length: 40 }, () => kit.createPayin(store.storeId)),
      );
      expect(results.map((r) => r.status)).toEqual(Array(40).fill(200));
      const rows: Array<{ id: number; count: number }> = await kit.db.query(
        `SELECT payment_detail_id AS id, count(*)::int AS count FROM transactions
          WHERE store_id = $1 GROUP BY payment_detail_id`,
        [store.storeId],
      );
      const counts = new Map(rows.map((row) => [row.id, row.count]));
      expect(counts.get(store.detailId)).toBeLessThanOrEqual(5);
      expect((counts.get(store.detailId) ?? 0) + (counts.get(unlimited) ?? 0)).toBe(40);
    });

    it('draws only from a merchant’s own details when it has any', async () => {
      const store = await kit.storeWithDetails({ maxPending: 0 });
      // Its only own detail takes nothing; the shared pool is not a fallback.
      await kit.ops.addPaymentDetails({});
      await kit
        .createPayin(store.storeId)
        .expect(409, { message: 'ERROR_NO_PAYMENT_DETAILS_AVAILABLE' });
      // Nor when its own details are disabled.
      await kit.ops
        .call('patch', `/payment-details/${store.detailId}`, { enabled: false, maxPending: null })
        .expect(200);
      await kit
        .createPayin(store.storeId)
        .expect(409, { message: 'ERROR_NO_PAYMENT_DETAILS_AVAILABLE' });
      await kit.ops
        .call('patch', `/payment-details/${store.detailId}`, { enabled: true })
        .expect(200);
      await kit.createPayin(store.storeId).expect(200);
    });
  });

  describe('merchant access flag', () => {
    it('refuses every merchant write with 403 ERROR_ACCESS_PAYIN_DISABLED once the operator turns payins off', async () => {
      const store = await kit.storeWithDetails();
      const { body } = await kit.createPayin(store.storeId).expect(200);
      await kit.ops.setFlags(store.merchantId, { payinEnabled: false });
      const refused = { message: 'ERROR_ACCESS_PAYIN_DISABLED' };
      await kit.createPayin(store.storeId).expect(403, refused);
      await kit.move('payins', body.transactionId, 'cancel', store.storeId).expect(403, refused);
      await kit.move('payins', body.transactionId, 'confirm', store.storeId).expect(403, refused);
      await kit.uploadProof(body.transactionId, store.storeId, PNG).expect(403, refused);
      expect(await kit.history(body.transactionId)).toEqual([
        { from: null, to: 'pending', actor: 'merchant' },
      ]);
      await kit.ops.setFlags(store.merchantId, { payinEnabled: true });
      await kit.move('payins', body.transactionId, 'cancel', store.storeId).expect(200);
    });
  });

  describe('cancel and confirm', () => {
    it('cancels a pending payin once; a second cancel or a confirm is 409 and changes nothing', async () => {
      const store = await kit.storeWithDetails();
      const { body } = await kit.createPayin(store.storeId).expect(200);
      const res = await kit.move('payins', body.transactionId, 'cancel', store.storeId).expect(200);
      expect(res.body).toEqual({ transactionId: body.transactionId, status: 'canceled' });
      const again = await kit
        .move('payins', body.transactionId, 'cancel', store.storeId)
        .expect(409);
      expect(again.body.message).toBe('ERROR_TRANSACTION_STATUS_CONFLICT');
      await kit.move('payins', body.transactionId, 'confirm', store.storeId).expect(409);
      expect(await kit.history(body.transactionId)).toEqual([
        { from: null, to: 'pending', actor: 'merchant' },
        { from: 'pending', to: 'canceled', actor: 'merchant' },
      ]);
    });

    it('answers 404 for another store’s payin, a payout id, an unknown or malformed id', async () => {
      const store = await kit.storeWithDetails();
      const other = await kit.storeWithDetails();
      const { body } = await kit.createPayin(store.storeId).expect(200);
      await kit
        .move('payins', body.transactionId, 'cancel', other.storeId)
        .expect(404, { message: 'ERROR_TRANSACTION_NOT_FOUND' });
      await kit.ops.fund(store.storeId, 10);
      const payout = await kit.createPayout(store.storeId, { amount: '1.00' }).expect(200);
      await kit
        .move('payins', payout.body.transactionId, 'confirm', store.storeId)
        .expect(404, { message: 'ERROR_TRANSACTION_NOT_FOUND' });
      await kit
        .move('payins', randomUUID(), 'confirm', store.storeId)
        .expect(404, { message: 'ERROR_TRANSACTION_NOT_FOUND' });
      await kit
        .move('payins', 'not-a-uuid', 'confirm', store.storeId)
        .expect(404, { message: 'ERROR_TRANSACTION_NOT_FOUND' });
      const missing = await kit.post(`/payins/${body.transactionId}/cancel`, {}).expect(400);
      expect(missing.body.details[0].field).toBe('storeId');
      // Nothing moved on the original.
      expect((await kit.history(body.transactionId)).map((h) => h.to)).toEqual(['pending']);
    });

    it('confirm moves to processing; operator success credits the balance with the payin and its fee', async () => {
      const store = await kit.storeWithDetails();
      await kit.ops
        .call('patch', `/stores/${store.storeId}`, { payinFeePercent: '2.5' })
        .expect(200);
      const { body } = await kit.createPayin(store.storeId, { amount: '100.00' }).expect(200);
      await kit
        .move('payins', body.transactionId, 'confirm', store.storeId)
        .expect(200, { transactionId: body.transactionId, status: 'processing' });
      expect(await kit.changes(store.storeId)).toEqual([]);
      await kit.ops
        .setStatus(body.transactionId, 'success')
        .then((r) => expect(r.status).toBe(200));
      expect(await kit.changes(store.storeId)).toEqual([
        {
          flow: 'payin',
          amount: '100.00',
          balanceBefore: '0.00',
          balanceAfter: '100.00',
          transactionId: body.transactionId,
        },
        {
          flow: 'payin_fee',
          amount: '-2.50',
          balanceBefore: '100.00',
          balanceAfter: '97.50',
          transactionId: body.transactionId,
        },
      ]);
      expect(await kit.balance(store.storeId)).toBe('97.50');
      await kit.assertLedgerInvariant(store.merchantId);
    });

    it('converts at the store’s exchange rate and rounds the credit and the fee to cents, half up', async () => {
      const store = await kit.storeWithDetails();
      await kit.ops
        .call('patch', `/stores/${store.storeId}`, { exchangeRate: '1.5', payinFeePercent: '1' })
        .expect(200);
      const { body } = await kit.createPayin(store.storeId, { amount: '10.01' }).expect(200);
      // A later rate change does not reprice a payin already created.
      await kit.ops.call('patch', `/stores/${store.storeId}`, { exchangeRate: '3' }).expect(200);
      await kit.move('payins', body.transactionId, 'confirm', store.storeId).expect(200);
      await kit.ops.setStatus(body.transactionId, 'success');
      // 10.01 × 1.5 = 15.015 → 15.02; 1 % of 15.02 = 0.1502 → 0.15.
      expect((await kit.changes(store.storeId)).map((c) => [c.flow, c.amount])).toEqual([
        ['payin', '15.02'],
        ['payin_fee', '-0.15'],
      ]);
      expect(await kit.balance(store.storeId)).toBe('14.87');
    });

    it('test payins: confirm settles to success (cents .13: failed) and never touches the balance', async () => {
      const store = await kit.storeWithDetails();
      const ok = await kit
        .createPayin(store.storeId, { isTest: true, amount: '20.00' })
        .expect(200);
      await kit
        .move('payins', ok.body.transactionId, 'confirm', store.storeId)
        .expect(200, { transactionId: ok.body.transactionId, status: 'success' });
      const bad = await kit
        .createPayin(store.storeId, { isTest: true, amount: '20.13' })
        .expect(200);
      await kit
        .move('payins', bad.body.transactionId, 'confirm', store.storeId)
        .expect(200, { transactionId: bad.body.transactionId, status: 'failed' });
      // A live payin of .13 is not special.
      const live = await kit.createPayin(store.storeId, { amount: '20.13' }).expect(200);
      await kit
        .move('payins', live.body.transactionId, 'confirm', store.storeId)
        .expect(200, { transactionId: live.body.transactionId, status: 'processing' });
      expect(await kit.changes(store.storeId)).toEqual([]);
      // A test payin that reaches success through the operator does not touch it either.
      const viaProof = await kit.createPayin(store.storeId, { isTest: true }).expect(200);
      await kit.uploadProof(viaProof.body.transactionId, store.storeId, PNG).expect(200);
      await kit.ops
        .setStatus(viaProof.body.transactionId, 'success')
        .then((r) => expect(r.status).toBe(200));
      expect(await kit.changes(store.storeId)).toEqual([]);
      expect(await kit.balance(store.storeId)).toBe('0.00');
    });
  });

  describe('proof upload and proof files', () => {
    it('stores a proof typed by content and moves pending to processing; the signed link serves it as a download', async () => {
      const store = await kit.storeWithDetails();
      const { body } = await kit.createPayin(store.storeId).expect(200);
      // Declared as text, named .exe: the content (PDF) decides.
      const res = await kit
        .uploadProof(body.transactionId, store.storeId, PDF, 'receipt.exe', 'text/plain')
        .expect(200);
      expect(res.body).toEqual({ transactionId: body.transactionId, status: 'processing' });
      const [row] = await kit.db.query(
        'SELECT proof_file_key, proof_mime_type, proof_file_name FROM transactions WHERE id = $1',
        [body.transactionId],
      );
      expect(row.proof_file_key).toMatch(/^[0-9a-f]{32}\.pdf$/);
      expect(row.proof_mime_type).toBe('application/pdf');
      expect(row.proof_file_name).toBe('receipt.exe');

      const { signFileUrl } = await import('@app/crypto');
      const url = new URL(
        signFileUrl(core.url, row.proof_file_key, core.config.secrets.fileUrlKey, 60),
      );
      const file = await request(core.url)
        .get(url.pathname + url.search)
        .buffer(true)
        .expect(200);
      expect(file.headers['content-type']).toBe('application/pdf');
      expect(file.headers['content-disposition']).toMatch(/^attachment; filename="receipt.exe"/);
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      expect(Buffer.from(file.body).equals(PDF)).toBe(true);
    });

    it('refuses a tampered link with 403, an expired one with 410, and an unknown key with 404, all as JSON', async () => {
      const { signFileUrl } = await import('@app/crypto');
      const key = 'ab'.repeat(16) + '.png';
      const url = new URL(signFileUrl(core.url, key, core.config.secrets.fileUrlKey, 60));
      // One character of the signature changed (to another one, so the link really differs).
      const sig = url.searchParams.get('sig')!;
      url.searchParams.set('sig', (sig[0] === '0' ? '1' : '0') + sig.slice(1));
      const tampered = await request(core.url)
        .get(url.pathname + url.search)
        .expect(403);
      expect(tampered.body).toEqual({ message: 'ERROR_FILE_URL_INVALID' });
      await request(core.url).get(url.pathname).expect(403, { message: 'ERROR_FILE_URL_INVALID' });
      const old = new URL(
        signFileUrl(core.url, key, core.config.secrets.fileUrlKey, 60, Date.now() - 3 * 3600_000),
      );
      await request(core.url)
        .get(old.pathname + old.search)
        .expect(410, { message: 'ERROR_FILE_URL_EXPIRED' });
      url.searchParams.set('sig', sig);
      await request(core.url)
        .get(url.pathname + url.search)
        .expect(404, { message: 'ERROR_FILE_NOT_FOUND' });
      const traversal = new URL(
        signFileUrl(core.url, '../secrets.json', core.config.secrets.fileUrlKey, 60),
      );
      await request(core.url)
        .get(traversal.pathname + traversal.search)
        .expect((res) => expect([403, 404]).toContain(res.status));
    });

    it('refuses GIF and unknown content with 400 ERROR_INVALID_DOCUMENT_TYPE and changes nothing', async () => {
      const store = await kit.storeWithDetails();
      const { body } = await kit.createPayin(store.storeId).expect(200);
      await kit
        .uploadProof(body.transactionId, store.storeId, GIF, 'x.png', 'image/png')
        .expect(400, { message: 'ERROR_INVALID_DOCUMENT_TYPE' });
      await kit
        .uploadProof(
          body.transactionId,
          store.storeId,
          Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
          'x.svg',
          'image/svg+xml',
        )
        .expect(400, { message: 'ERROR_INVALID_DOCUMENT_TYPE' });
      expect((await kit.history(body.transactionId)).map((h) => h.to)).toEqual(['pending']);
    });

    it('answers a missing file with 400 naming document, and a file over 10 MB with 413 ERROR_FILE_TOO_LARGE', async () => {
      const store = await kit.storeWithDetails();
      const { body } = await kit.createPayin(store.storeId).expect(200);
      const missing = await request(core.url)
        .post(`/core/v1/payins/${body.transactionId}/proof`)
        .set('authorization', `Bearer ${core.config.secrets.coreServiceToken}`)
        .field('storeId', String(store.storeId))
        .expect(400);
      expect(missing.body.details[0].field).toBe('document');
      const big = Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]);
      await kit
        .uploadProof(body.transactionId, store.storeId, big)
        .expect(413, { message: 'ERROR_FILE_TOO_LARGE' });
      const two = await request(core.url)
        .post(`/core/v1/payins/${body.transactionId}/proof`)
        .set('authorization', `Bearer ${core.config.secrets.coreServiceToken}`)
        .field('storeId', String(store.storeId))
        .attach('document', PNG, 'a.png')
        .attach('document', PNG, 'b.png')
        .expect(400);
      expect(two.body.message).toBe('ERROR_INVALID_REQUEST');
    });

    it('refuses a proof on a final payin with 409, and the operator’s proof request lets the payer upload again', async () => {
      const store = await kit.storeWithDetails();
      const canceled = await kit.createPayin(store.storeId).expect(200);
      await kit.move('payins', canceled.body.transactionId, 'cancel', store.storeId).expect(200);
      await kit.uploadProof(canceled.body.transactionId, store.storeId, PNG).expect(409);
      const [{ keys }] = await kit.db.query(
        'SELECT count(proof_file_key)::int AS keys FROM transactions WHERE id = $1',
        [canceled.body.transactionId],
      );
      expect(keys).toBe(0);

      const { body } = await kit.createPayin(store.storeId).expect(200);
      await kit.move('payins', body.transactionId, 'confirm', store.storeId).expect(200);
      await kit.uploadProof(body.transactionId, store.storeId, PNG).expect(409);
      await kit.ops
        .setStatus(body.transactionId, 'proof_requested')
        .then((r) => expect(r.status).toBe(200));
      const [flag] = await kit.db.query('SELECT proof_requested FROM transactions WHERE id = $1', [
        body.transactionId,
      ]);
      expect(flag.proof_requested).toBe(true);
      await kit
        .uploadProof(body.transactionId, store.storeId, PNG)
        .expect(200, { transactionId: body.transactionId, status: 'processing' });
      await kit.ops.setStatus(body.transactionId, 'failed').then((r) => expect(r.status).toBe(200));
      expect(await kit.changes(store.storeId)).toEqual([]);
    });
  });
});
