import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { coreKit, PDF, PNG } from '../core/core-test-kit';
import { SigningClient } from '../support/signing-client';
import { RunningApp, startCore, startMerchantApi } from '../support/system';

/**
 * The payer's whole journey in a real browser (Debian's chromium through playwright-core):
 * a merchant creates a payin through the merchant API, the payer opens `paymentPage`, reads
 * the amount and details, reports the payment, uploads the receipt the operator asks for,
 * watches the status change without reloading, and lands on the shop's successUrl. The
 * merchant sees each step through the API.
 *
 * Skips only when /usr/bin/chromium is absent AND REQUIRE_BROWSER is unset; CI sets
 * REQUIRE_BROWSER=1, so a missing browser fails there instead of passing silently.
 */
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];
const BROWSER_AVAILABLE = existsSync(CHROMIUM);
const BROWSER_REQUIRED = Boolean(process.env.REQUIRE_BROWSER);
const ARTIFACTS = join(__dirname, '../../test-artifacts/payment-page');
const DOCS = join(__dirname, '../../docs');

if (!BROWSER_AVAILABLE && !BROWSER_REQUIRED) {
  console.warn(
    `SKIPPED payment page browser test: ${CHROMIUM} is not installed (apt-get install -y chromium). ` +
      'Set REQUIRE_BROWSER=1 to make a missing browser a failure.',
  );
}
const describeInBrowser = BROWSER_AVAILABLE || BROWSER_REQUIRED ? describe : describe.skip;

/** The shop's pages the payer is sent back to: records each visit and its Referer. */
async function startShop(): Promise<{
  url: string;
  visits: Array<{ path: string; headers: IncomingHttpHeaders }>;
  server: Server;
}> {
  const visits: Array<{ path: string; headers: IncomingHttpHeaders }> = [];
  const server = createServer((req, res) => {
    visits.push({ path: req.url ?? '', headers: req.headers });
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><title>Shop</title><h1>Back at the shop</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, visits, server };
}

/** Asks again until `check` passes: the merchant API reads through a cache the core invalidates. */
async function eventually(check: () => Promise<void>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

describeInBrowser('payment page in a real browser', () => {
  let core: RunningApp;
  let api: RunningApp;
  let kit: ReturnType<typeof coreKit>;
  let shop: Awaited<ReturnType<typeof startShop>>;
  let browser: Browser;

  beforeAll(async () => {
    if (!BROWSER_AVAILABLE)
      throw new Error(
        `REQUIRE_BROWSER is set but ${CHROMIUM} is missing: apt-get install -y chromium`,
      );
    core = await startCore();
    // paymentPage links must point at this core's real port.
    api = await startMerchantApi(core.url, { PUBLIC_BASE_URL: core.url });
    kit = coreKit(core);
    shop = await startShop();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    // beforeAll may have failed before the shop started: nothing to close then.
    if (shop) await new Promise((resolve) => shop.server.close(resolve));
    await api?.app.close();
    await core?.app.close();
  });

  /** A merchant with receiving details of its own, and its signing client on the merchant API. */
  async function merchant(details: Record<string, unknown> = {}) {
    const store = await kit.storeWithDetails(details);
    return { store, client: new SigningClient(api.url, store) };
  }

  /** A context that records anything the CSP blocks and every uncaught script error. */
  async function openContext(
    options: Parameters<Browser['newContext']>[0],
  ): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
    const context = await browser.newContext({ ...options, locale: 'en-US' });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    return { context, page, problems };
  }

  async function screenshot(page: Page, name: string): Promise<void> {
    const path = join(ARTIFACTS, `${name}.png`);
    await page.screenshot({ path });
    // The committed docs/ copies are refreshed on purpose only, not by every run.
    if (
      process.env.UPDATE_DOCS_SCREENSHOTS === '1' &&
      (name === 'payment-page-phone' || name === 'payment-page-desktop')
    ) {
      copyFileSync(path, join(DOCS, `${name}.png`));
    }
  }

  it('takes a payer from the link to the shop: details, "I have paid", receipt, operator success, redirect', async () => {
    const { client } = await merchant({
      cardName: 'ANNA SMIRNOVA',
      bankName: 'North Bank',
      cardNumber: '2200700123456781',
      phoneNumber: '+7 900 555-01-02',
      qrCode: 'https://qr.example/pay/7f3a',
    });
    const created = await client
      .send('post', '/api/v1/payin', {
        amount: 1500.5,
        clientId: 7,
        description: 'Order #1042',
        successUrl: `${shop.url}/thanks`,
        failureUrl: `${shop.url}/sorry`,
        tgbotId: 'shop_pay_bot',
      })
      .expect(200);
    const { transactionId, paymentPage } = created.body.data as {
      transactionId: string;
      paymentPage: string;
    };
    expect(paymentPage).toBe(`${core.url}/pay/${transactionId}`);
    const merchantSees = async (expected: Record<string, unknown>) =>
      eventually(async () => {
        const res = await client.onTransaction('get', 'payin', transactionId).expect(200);
        expect(res.body.data).toMatchObject(expected);
      });

    const { context, page, problems } = await openContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: core.url });
    await page.goto(paymentPage);

    // Amount and the full receiving details.
    expect(await page.locator('#amount-heading .amount').innerText()).toBe('1,500.50 USD');
    expect(await page.locator('#value-cardNumber').innerText()).toBe('2200 7001 2345 6781');
    expect(await page.locator('#value-cardName').innerText()).toBe('ANNA SMIRNOVA');
    expect(await page.locator('#value-bankName').innerText()).toBe('North Bank');
    expect(await page.locator('#value-phoneNumber').innerText()).toBe('+7 900 555-01-02');
    expect(
      await page.getByRole('img', { name: 'QR code with the payment details' }).isVisible(),
    ).toBe(true);
    expect(
      await page
        .getByRole('link', { name: 'Follow this payment in the messenger' })
        .getAttribute('href'),
    ).toBe(`https://t.me/shop_pay_bot?tid=${transactionId}`);

    await screenshot(page, 'payment-page-phone');
    await page.screenshot({ path: join(ARTIFACTS, 'payment-page-phone-full.png'), fullPage: true });

    // The countdown runs.
    const before = await page.locator('#timer').innerText();
    expect(before).toMatch(/^(29|30):\d\d$/);
    await page.locator('#timer', { hasNotText: before }).waitFor({ timeout: 5000 });

    // Copy puts the bare digits on the clipboard and says so.
    await page.getByRole('button', { name: 'Copy card number' }).click();
    await page.locator('#copy-status', { hasText: 'Copied to the clipboard.' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe('2200700123456781');

    // Keyboard order follows the page: copy buttons, QR link, "I have paid", receipt, upload, messenger.
    await page.locator('#amount-heading').click();
    const order: string[] = [];
    for (let i = 0; i < 7; i++) {
      await page.keyboard.press('Tab');
      order.push(
        await page.evaluate(
          '(() => { const el = document.activeElement; return el.getAttribute("aria-label") || el.id || el.textContent.trim(); })()',
        ),
      );
    }
    expect(order).toEqual([
      'Copy card number',
      'Copy phone number',
      'Open in your banking app',
      'I have paid',
      'document',
      'Upload receipt',
      'Follow this payment in the messenger',
    ]);

    // The same page on a desktop.
    const desktop = await openContext({ viewport: { width: 1280, height: 800 } });
    await desktop.page.goto(paymentPage);
    await desktop.page.locator('#details').waitFor();
    await screenshot(desktop.page, 'payment-page-desktop');
    expect(desktop.problems).toEqual([]);
    await desktop.context.close();

    // "I have paid": the status changes in place, the merchant sees processing.
    await page.getByRole('button', { name: 'I have paid' }).click();
    await page.locator('#status-title', { hasText: 'We are checking your payment' }).waitFor();
    await page
      .locator('#notice', { hasText: 'Thank you! We are checking your payment.' })
      .waitFor();
    expect(await page.locator('#paid-form').isHidden()).toBe(true);
    await merchantSees({ status: 'processing' });

    // The operator asks for a receipt; polling brings the upload form back without a reload.
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations.push(frame.url());
    });
    await kit.ops
      .setStatus(transactionId, 'proof_requested')
      .then((res) => expect(res.status).toBe(200));
    await page
      .locator('#status-title', { hasText: 'Please upload your receipt' })
      .waitFor({ timeout: 15_000 });
    await merchantSees({ status: 'proof_requested', proof: { ping: true } });

    await page
      .getByLabel('Receipt (photo, screenshot or PDF, up to 10 MB)')
      .setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('button', { name: 'Upload receipt' }).click();
    await page.locator('#notice', { hasText: 'Receipt received. Thank you!' }).waitFor();
    await page.locator('#status-title', { hasText: 'We are checking your payment' }).waitFor();
    await merchantSees({
      status: 'processing',
      proof: { ping: true, file: { mimeType: 'image/png', fileName: 'receipt.png' } },
    });

    // The operator confirms: the page shows the result, drops the details, and sends the payer to the shop.
    await kit.ops.setStatus(transactionId, 'success').then((res) => expect(res.status).toBe(200));
    await page
      .locator('#status-title', { hasText: 'Payment received' })
      .waitFor({ timeout: 15_000 });
    expect(await page.locator('#details').count()).toBe(0);
    expect(await page.locator('#actions').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Return to the shop' }).getAttribute('href')).toBe(
      `${shop.url}/thanks`,
    );
    expect(await page.evaluate('document.activeElement.id')).toBe('status-title');
    await screenshot(page, 'payment-page-phone-success');
    expect(navigations).toEqual([]);
    await merchantSees({ status: 'success' });

    await page.waitForURL(`${shop.url}/thanks`, { timeout: 15_000 });
    const visit = shop.visits.find((v) => v.path === '/thanks');
    expect(visit).toBeDefined();
    // Referrer-Policy: no-referrer keeps the payment link out of the shop's logs.
    expect(visit!.headers.referer).toBeUndefined();
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('removes the details when the countdown ends and shows the expiry without a reload (Russian)', async () => {
    const { store, client } = await merchant({ cardNumber: '2200700123456781' });
    await kit.ops.call('patch', `/stores/${store.storeId}`, { payinTtlSeconds: 3 }).expect(200);
    const created = await client
      .send('post', '/api/v1/payin', {
        amount: 990,
        clientId: 8,
        language: 'ru',
        failureUrl: `${shop.url}/sorry`,
      })
      .expect(200);
    const { paymentPage } = created.body.data as { paymentPage: string };

    const { context, page, problems } = await openContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
    });
    await page.goto(paymentPage);
    expect(await page.getByRole('button', { name: 'Я оплатил' }).isVisible()).toBe(true);
    await page
      .locator('#status-title', { hasText: 'Время на оплату истекло' })
      .waitFor({ timeout: 15_000 });
    expect(await page.locator('#details').count()).toBe(0);
    expect(await page.content()).not.toContain('2200');
    await page.waitForURL(`${shop.url}/sorry`, { timeout: 15_000 });
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it('works with script turned off: the forms post and come back to the page (CSP form-action allows it)', async () => {
    const { client } = await merchant();
    const created = await client
      .send('post', '/api/v1/payin', { amount: 25, clientId: 9 })
      .expect(200);
    const { transactionId, paymentPage } = created.body.data as {
      transactionId: string;
      paymentPage: string;
    };

    const { context, page, problems } = await openContext({
      viewport: { width: 390, height: 844 },
      javaScriptEnabled: false,
    });
    await page.goto(paymentPage);
    await page.getByRole('button', { name: 'I have paid' }).click();
    await page.waitForURL(`${paymentPage}?notice=paid_reported`);
    expect(await page.locator('#notice').innerText()).toBe(
      'Thank you! We are checking your payment.',
    );
    expect(await page.locator('#status-title').innerText()).toBe('We are checking your payment');

    await kit.ops
      .setStatus(transactionId, 'proof_requested')
      .then((res) => expect(res.status).toBe(200));
    await page.goto(paymentPage);
    await page
      .getByLabel('Receipt (photo, screenshot or PDF, up to 10 MB)')
      .setInputFiles({ name: 'r.pdf', mimeType: 'application/pdf', buffer: PDF });
    await page.getByRole('button', { name: 'Upload receipt' }).click();
    await page.waitForURL(`${paymentPage}?notice=receipt_uploaded`);
    expect(await page.locator('#notice').innerText()).toBe('Receipt received. Thank you!');
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});
