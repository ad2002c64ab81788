import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { coreKit, GIF, PNG } from '../core/core-test-kit';
import { RunningApp, startCore } from '../support/system';

/**
 * The hosted payment page over plain HTTP: what a payer's browser is sent (headers, HTML,
 * language, escaping) and what its script and forms may do. The real-browser flow is in
 * payment-page.browser.e2e-spec.ts.
 */
describe('payment page (HTTP)', () => {
  let core: RunningApp;
  let kit: ReturnType<typeof coreKit>;

  beforeAll(async () => {
    // The expiry job is slowed right down, so a payin stays `pending` past its deadline and the
    // page itself must show it as expired.
    core = await startCore({
      EXPIRY_INTERVAL_MS: '3600000',
      MESSENGER_BOT_BASE_URL: 'https://messenger.example/bots',
    });
    kit = coreKit(core);
  });
  afterAll(() => core.app.close());

  const page = (id: string) => request(core.url).get(`/pay/${id}`);
  const statusOf = (id: string) =>
    request(core.url).get(`/pay/${id}/status`).set('accept', 'application/json');
  const paid = (id: string) =>
    request(core.url).post(`/pay/${id}/paid`).set('accept', 'application/json');
  const upload = (id: string, file: Buffer, filename = 'receipt.png', contentType = 'image/png') =>
    request(core.url)
      .post(`/pay/${id}/proof`)
      .set('accept', 'application/json')
      .attach('document', file, { filename, contentType });

  /** A store of its own with receiving details reserved for it, and one payin on them. */
  async function newPayin(
    fields: Record<string, unknown> = {},
    details: Record<string, unknown> = {},
    ttlSeconds?: number,
  ) {
    const store = await kit.storeWithDetails(details);
    if (ttlSeconds !== undefined)
      await kit.ops
        .call('patch', `/stores/${store.storeId}`, { payinTtlSeconds: ttlSeconds })
        .expect(200);
    const res = await kit.createPayin(store.storeId, fields).expect(200);
    return { store, id: res.body.transactionId as string };
  }

  async function expectConflict(call: request.Test): Promise<void> {
    const res = await call.expect(409);
    expect(res.body.message).toBe('ERROR_TRANSACTION_STATUS_CONFLICT');
  }

  function expectPageHeaders(res: request.Response): void {
    const csp = res.headers['content-security-policy'];
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  }

  describe('a pending payin', () => {
    it('shows the amount and every receiving detail, the card number in full and in fours, with strict headers', async () => {
      const { store, id } = await newPayin(
        { amount: '1234.50', description: 'Order 77', clientEmail: 'payer@example.com' },
        {
          cardName: 'ANNA SMIRNOVA',
          bankName: 'North Bank',
          cardNumber: '2200700123456781',
          phoneNumber: '+7 900 555-01-02',
          accountNumber: '40817810000000000001',
          ibanNumber: 'GB82WEST12345698765432',
          qrCode: 'https://qr.example/pay/abc',
        },
      );
      const res = await page(id).expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
      expectPageHeaders(res);
      const html = res.text;
      expect(html).toContain('1,234.50');
      expect(html).toContain('USD');
      expect(html).toContain('Order 77');
      expect(html).toContain('>2200 7001 2345 6781<');
      expect(html).toContain('data-copy="2200700123456781"');
      for (const value of [
        'ANNA SMIRNOVA',
        'North Bank',
        '+7 900 555-01-02',
        '40817810000000000001',
        'GB82 WEST 1234 5698 7654 32',
      ]) {
        expect(html).toContain(value);
      }
      expect(html).toMatch(/<div class="qr-image" role="img" aria-label="[^"]+">\s*<svg /);
      expect(html).toContain('href="https://qr.example/pay/abc"');
      expect(html).toContain('I have paid');
      expect(html).toMatch(/<input[^>]*type="file"[^>]*name="document"/);
      expect(html).toMatch(/<label for="document">/);
      expect(html).toContain('role="timer"');
      // Nothing but this payin: no tokens, no client data the payer didn't need.
      expect(html).not.toContain(store.publicToken);
      expect(html).not.toContain(store.privateToken);
      expect(html).not.toContain('payer@example.com');
    });

    it("never shows another payin's details or id", async () => {
      const mine = await newPayin({}, { cardNumber: '5555555555554444', cardName: 'MINE' });
      const other = await newPayin({}, { cardNumber: '4000056655665556', cardName: 'OTHER' });
      const html = (await page(mine.id).expect(200)).text;
      expect(html).toContain('5555 5555 5555 4444');
      expect(html).not.toContain('4000056655665556');
      expect(html).not.toContain('4000 0566 5566 5556');
      expect(html).not.toContain('OTHER');
      expect(html).not.toContain(other.id);
    });

    it('serves its own script and stylesheet, and nothing else under assets', async () => {
      const { id } = await newPayin();
      const html = (await page(id).expect(200)).text;
      const script = /<script src="(assets\/payment-page\.js\?v=[0-9a-f]+)" defer><\/script>/.exec(
        html,
      )?.[1];
      const style = /<link rel="stylesheet" href="(assets\/payment-page\.css\?v=[0-9a-f]+)"/.exec(
        html,
      )?.[1];
      expect(script).toBeDefined();
      expect(style).toBeDefined();
      const js = await request(core.url).get(`/pay/${script}`).expect(200);
      expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(js.headers['x-content-type-options']).toBe('nosniff');
      expect(js.text).toContain('statusUrl');
      const css = await request(core.url).get(`/pay/${style}`).expect(200);
      expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
      await request(core.url).get('/pay/assets/secrets.json').expect(404);
      await request(core.url).get('/pay/assets/..%2f..%2fpayment-page.service.ts').expect(404);
    });

    it('escapes what the merchant and the operator typed', async () => {
      const { id } = await newPayin(
        { description: '"><img src=x onerror=alert(1)>' },
        { cardName: '<script>alert("holder")</script>', bankName: "Bank & 'Co'" },
      );
      const html = (await page(id).expect(200)).text;
      expect(html).not.toContain('<img src=x');
      expect(html).not.toContain('<script>alert');
      expect(html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
      expect(html).toContain('&lt;script&gt;alert(&quot;holder&quot;)&lt;/script&gt;');
      expect(html).toContain('Bank &amp; &#39;Co&#39;');
    });

    it('redirects /pay/<id>/ to the canonical URL, which its relative links need', async () => {
      const { id } = await newPayin();
      const res = await request(core.url).get(`/pay/${id}/`).expect(301);
      expect(res.headers.location).toBe(`../${id}`);
      expect(new URL(res.headers.location, `${core.url}/pay/${id}/`).pathname).toBe(`/pay/${id}`);
    });
  });

  describe('language', () => {
    it('speaks Russian for a payin created with ru-RU, in the page and in the status', async () => {
      const { id } = await newPayin({ language: 'ru-RU', amount: '1500.00' });
      const html = (await page(id).expect(200)).text;
      expect(html).toContain('<html lang="ru"');
      expect(html).toContain('Сумма к оплате');
      expect(html).toContain('Я оплатил');
      expect(html).toContain('1\u202f500,00');
      expect((await statusOf(id).expect(200)).body.title).toBe('Ожидаем оплату');
    });

    it('falls back to English for an unknown or missing language', async () => {
      for (const language of ['de', undefined]) {
        const { id } = await newPayin(language ? { language } : {});
        const html = (await page(id).expect(200)).text;
        expect(html).toContain('<html lang="en"');
        expect(html).toContain('Amount to pay');
      }
    });
  });

  describe('ids that are not a payin', () => {
    it('answers an unknown, malformed or payout id with a 404 page carrying the same headers', async () => {
      const store = await kit.storeWithDetails();
      await kit.ops.fund(store.storeId, 50);
      const payout = await kit
        .createPayout(store.storeId, { cardNumber: '4111111111111111' })
        .expect(200);
      for (const id of [randomUUID(), 'not-a-uuid', payout.body.transactionId]) {
        const res = await page(id).expect(404);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expectPageHeaders(res);
        expect(res.text).toContain('Payment not found');
        expect(res.text).not.toContain('4111');
      }
    });

    it("words the 404 page in the browser's language", async () => {
      const res = await page(randomUUID())
        .set('accept-language', 'ru-RU,ru;q=0.9,en;q=0.8')
        .expect(404);
      expect(res.text).toContain('<html lang="ru"');
      expect(res.text).toContain('Платёж не найден');
    });

    it('answers the JSON endpoints with 404 ERROR_TRANSACTION_NOT_FOUND', async () => {
      const id = randomUUID();
      await statusOf(id).expect(404, { message: 'ERROR_TRANSACTION_NOT_FOUND' });
      await statusOf('nope').expect(404, { message: 'ERROR_TRANSACTION_NOT_FOUND' });
      await paid(id).expect(404, { message: 'ERROR_TRANSACTION_NOT_FOUND' });
      await upload(id, PNG).expect(404, { message: 'ERROR_TRANSACTION_NOT_FOUND' });
    });
  });

  describe('expired and final payins', () => {
    it('shows a payin past its deadline as expired, without the details, and refuses to act on it', async () => {
      const { id } = await newPayin(
        { failureUrl: 'https://shop.example/fail' },
        { cardNumber: '2200700123456781' },
        1,
      );
      await new Promise((resolve) => setTimeout(resolve, 1200));
      // Usually still `pending` (this core's job is slowed down), but the e2e suites share one
      // database and another suite's core may already have expired it: the page must look the
      // same either way. The pending-past-deadline case alone is pinned by payment-page.state.spec.ts.
      const [{ status }] = await kit.db.query('SELECT status FROM transactions WHERE id = $1', [
        id,
      ]);
      expect(['pending', 'expired']).toContain(status);

      const html = (await page(id).expect(200)).text;
      expect(html).toContain('Time to pay has run out');
      expect(html).not.toContain('2200');
      expect(html).not.toContain('<form');
      expect(html).not.toContain('id="details"');
      expect(html).toContain('href="https://shop.example/fail"');
      expect((await statusOf(id).expect(200)).body).toMatchObject({
        status: 'expired',
        final: true,
        secondsLeft: null,
        redirectUrl: 'https://shop.example/fail',
      });
      await expectConflict(paid(id));
      await expectConflict(upload(id, PNG));
    });

    it('shows the result of a successful payin and the way back to successUrl, never the details', async () => {
      const { id } = await newPayin(
        {
          successUrl: 'https://shop.example/ok?order=7&x=1',
          failureUrl: 'https://shop.example/fail',
        },
        { cardNumber: '2200700123456781' },
      );
      await paid(id).expect(200);
      await kit.ops.setStatus(id, 'success').then((res) => expect(res.status).toBe(200));

      const html = (await page(id).expect(200)).text;
      expect(html).toContain('Payment received');
      expect(html).toContain('href="https://shop.example/ok?order=7&amp;x=1"');
      expect(html).not.toContain('2200');
      expect(html).not.toContain('<form');
      expect((await statusOf(id).expect(200)).body).toEqual({
        status: 'success',
        final: true,
        secondsLeft: null,
        canConfirm: false,
        canUpload: false,
        redirectUrl: 'https://shop.example/ok?order=7&x=1',
        title: 'Payment received',
        text: expect.any(String),
      });
    });

    it('sends a canceled payin to failureUrl, and shows no link when there is none', async () => {
      const withUrl = await newPayin({ failureUrl: 'https://shop.example/fail' });
      await kit.move('payins', withUrl.id, 'cancel', withUrl.store.storeId).expect(200);
      const html = (await page(withUrl.id).expect(200)).text;
      expect(html).toContain('Payment canceled');
      expect(html).toContain('href="https://shop.example/fail"');

      const without = await newPayin();
      await kit.move('payins', without.id, 'cancel', without.store.storeId).expect(200);
      expect((await page(without.id).expect(200)).text).not.toContain('id="redirect"');
      expect((await statusOf(without.id).expect(200)).body.redirectUrl).toBeNull();
    });
  });

  describe('"I have paid"', () => {
    it('moves pending to processing as the payer, once', async () => {
      const { id } = await newPayin();
      const res = await paid(id).expect(200);
      expect(res.body).toMatchObject({
        status: 'processing',
        final: false,
        canConfirm: false,
        canUpload: false,
        notice: 'Thank you! We are checking your payment.',
      });
      expect((await kit.history(id)).at(-1)).toEqual({
        from: 'pending',
        to: 'processing',
        actor: 'payer',
      });
      await expectConflict(paid(id));
      expect((await page(id).expect(200)).text).toContain('We are checking your payment');
    });

    it('works without script: the form post comes back to the page with a notice', async () => {
      const { id } = await newPayin({ language: 'ru' });
      const res = await request(core.url)
        .post(`/pay/${id}/paid`)
        .set('accept', 'text/html')
        .type('form')
        .send('')
        .expect(303);
      expect(res.headers.location).toBe(`../${id}?notice=paid_reported`);
      const html = (await request(core.url).get(`/pay/${id}?notice=paid_reported`).expect(200))
        .text;
      expect(html).toContain('Спасибо! Проверяем вашу оплату.');
      expect((await request(core.url).get(`/pay/${id}?notice=<b>`).expect(200)).text).not.toContain(
        '<b>',
      );

      const again = await request(core.url)
        .post(`/pay/${id}/paid`)
        .set('accept', 'text/html')
        .type('form')
        .send('')
        .expect(303);
      expect(again.headers.location).toBe(`../${id}?notice=conflict`);
    });

    it('settles a test payin at once: success to successUrl, cents .13 failed to failureUrl', async () => {
      const urls = {
        isTest: true,
        successUrl: 'http://127.0.0.1:9/ok',
        failureUrl: 'http://127.0.0.1:9/fail',
      };
      const good = await newPayin({ ...urls, amount: '10.00' });
      expect(
        await page(good.id)
          .expect(200)
          .then((res) => res.text),
      ).toContain('Test payment');
      expect((await paid(good.id).expect(200)).body).toMatchObject({
        status: 'success',
        final: true,
        redirectUrl: 'http://127.0.0.1:9/ok',
      });
      const bad = await newPayin({ ...urls, amount: '10.13' });
      expect((await paid(bad.id).expect(200)).body).toMatchObject({
        status: 'failed',
        final: true,
        redirectUrl: 'http://127.0.0.1:9/fail',
      });
    });
  });

  describe('receipt upload', () => {
    it('takes a receipt typed by its content and moves pending to processing as the payer', async () => {
      const { id } = await newPayin();
      const res = await upload(id, PNG, 'receipt.pdf', 'application/pdf').expect(200);
      expect(res.body).toMatchObject({
        status: 'processing',
        notice: 'Receipt received. Thank you!',
      });
      const record = await kit.ops.call('get', `/transactions/${id}`).expect(200);
      expect(record.body.proof).toMatchObject({ mimeType: 'image/png', fileName: 'receipt.pdf' });
      expect(record.body.statusHistory.at(-1)).toMatchObject({
        from: 'pending',
        to: 'processing',
        actor: 'payer',
      });
    });

    it('refuses what the API refuses: a GIF, no file, two files, over 10 MB', async () => {
      const { id } = await newPayin();
      await upload(id, GIF, 'receipt.png', 'image/png').expect(400, {
        message: 'ERROR_INVALID_DOCUMENT_TYPE',
      });
      const none = await request(core.url)
        .post(`/pay/${id}/proof`)
        .set('accept', 'application/json')
        .field('note', 'x')
        .expect(400);
      expect(none.body.message).toBe('ERROR_INVALID_REQUEST');
      const two = await request(core.url)
        .post(`/pay/${id}/proof`)
        .set('accept', 'application/json')
        .attach('document', PNG, 'a.png')
        .attach('document', PNG, 'b.png')
        .expect(400);
      expect(two.body.message).toBe('ERROR_INVALID_REQUEST');
      const big = Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]);
      await upload(id, big).expect(413, { message: 'ERROR_FILE_TOO_LARGE' });
      expect((await statusOf(id).expect(200)).body.status).toBe('pending');
    });

    it('takes the receipt the operator asked for (proof_requested → processing), and not otherwise while processing', async () => {
      const { id } = await newPayin();
      await paid(id).expect(200);
      await expectConflict(upload(id, PNG));
      await kit.ops.setStatus(id, 'proof_requested').then((res) => expect(res.status).toBe(200));
      expect((await statusOf(id).expect(200)).body).toMatchObject({
        status: 'proof_requested',
        canConfirm: false,
        canUpload: true,
      });
      expect((await upload(id, PNG).expect(200)).body.status).toBe('processing');
    });

    it('works without script: a refused file comes back to the page with the reason', async () => {
      const { id } = await newPayin();
      const res = await request(core.url)
        .post(`/pay/${id}/proof`)
        .set('accept', 'text/html')
        .attach('document', GIF, { filename: 'receipt.gif', contentType: 'image/gif' })
        .expect(303);
      expect(res.headers.location).toBe(`../${id}?notice=file_type`);
      expect((await page(`${id}?notice=file_type`).expect(200)).text).toContain(
        'This file type is not accepted',
      );
      const ok = await request(core.url)
        .post(`/pay/${id}/proof`)
        .set('accept', 'text/html')
        .attach('document', PNG, 'r.png')
        .expect(303);
      expect(ok.headers.location).toBe(`../${id}?notice=receipt_uploaded`);
    });
  });

  it('links the messenger bot as <MESSENGER_BOT_BASE_URL>/<tgbotId>?tid=<id> when the payin has one', async () => {
    const { id } = await newPayin({ tgbotId: 'shop_bot' });
    expect((await page(id).expect(200)).text).toContain(
      `href="https://messenger.example/bots/shop_bot?tid=${id}"`,
    );
    const plain = await newPayin();
    expect((await page(plain.id).expect(200)).text).not.toContain('messenger.example');
  });
});
