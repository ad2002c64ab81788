import { escapeHtml, html, trustedHtml } from './payment-page.html';
import { renderQr } from './payment-page.qr';
import type { PageState } from './payment-page.state';
import {
  groupInFours,
  renderNotFoundPage,
  renderPaymentPage,
  type PaymentPageView,
} from './payment-page.view';

const ASSETS = {
  scriptPath: 'assets/payment-page.js?v=1',
  stylePath: 'assets/payment-page.css?v=1',
};
const PENDING: PageState = {
  status: 'pending',
  final: false,
  secondsLeft: 1800,
  canConfirm: true,
  canUpload: true,
  redirectUrl: null,
};
const EVIL = `<script>alert("x")</script>'&`;

function view(overrides: Partial<PaymentPageView> = {}): PaymentPageView {
  return {
    id: '3f1c2a4e-0000-4000-8000-000000000001',
    language: 'en',
    state: PENDING,
    amount: '1500.00',
    currency: 'RUB',
    description: null,
    isTest: false,
    details: {
      cardNumber: '2202201234567890',
      bankName: 'Bank',
      cardName: 'HOLDER',
      phoneNumber: null,
      accountNumber: null,
      ibanNumber: null,
      qrImage: null,
      qrLink: null,
    },
    messengerUrl: null,
    notice: null,
    ...overrides,
  };
}

describe('html template', () => {
  it('escapes every interpolated value unless it is marked as trusted markup', () => {
    expect(escapeHtml(EVIL)).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;');
    expect(html`<p title="${EVIL}">${EVIL}</p>`.value).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;</p>',
    );
    expect(
      html`<div>${trustedHtml('<b>ok</b>')}${[EVIL, null, undefined, false]}</div>`.value,
    ).toBe('<div><b>ok</b>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;</div>');
  });
});

describe('payment page rendering', () => {
  it('groups a card number or an IBAN in fours', () => {
    expect(groupInFours('2202201234567890')).toBe('2202 2012 3456 7890');
    expect(groupInFours('DE89 3704 0044 0532 0130 00')).toBe('DE89 3704 0044 0532 0130 00');
    expect(groupInFours('4111111111111')).toBe('4111 1111 1111 1');
  });

  it('escapes the merchant description and the receiving details', () => {
    const page = renderPaymentPage(
      view({
        description: EVIL,
        details: {
          ...view().details!,
          bankName: EVIL,
          cardName: '<img src=x onerror=alert(1)>',
          phoneNumber: '"><svg onload=alert(1)>',
        },
      }),
      ASSETS,
    );
    expect(page).not.toContain('<script>alert');
    expect(page).not.toContain('<img src=x');
    expect(page).not.toContain('<svg onload');
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('has no inline script, inline style or event handler attribute (the CSP would block them)', () => {
    const page = renderPaymentPage(
      view({ description: 'x', isTest: true, messengerUrl: 'https://t.me/b?tid=1' }),
      ASSETS,
    );
    const scripts = page.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts).toEqual([`<script src="${ASSETS.scriptPath}" defer>`]);
    expect(page).not.toMatch(/\sstyle=/);
    expect(page).not.toMatch(/\son[a-z]+=/i);
    expect(page).not.toMatch(/<style\b/);
  });

  it('shows the full card number in fours, with a copy button carrying the digits', () => {
    const page = renderPaymentPage(view(), ASSETS);
    expect(page).toContain('>2202 2012 3456 7890<');
    expect(page).toContain('data-copy="2202201234567890"');
    expect(page).toContain('aria-label="Copy card number"');
  });

  it('shows neither details nor actions once final, only the result and the way back', () => {
    const page = renderPaymentPage(
      view({
        state: {
          status: 'success',
          final: true,
          secondsLeft: null,
          canConfirm: false,
          canUpload: false,
          redirectUrl: 'https://shop.example/ok?a=1&b=2',
        },
      }),
      ASSETS,
    );
    expect(page).not.toContain('2202');
    expect(page).not.toContain('id="details"');
    expect(page).not.toContain('<form');
    expect(page).not.toContain('id="timer"');
    expect(page).toContain('Payment received');
    expect(page).toContain('href="https://shop.example/ok?a=1&amp;b=2"');
    expect(page).toContain('data-final="true"');
  });

  it('keeps "I have paid" and the receipt form in the page but hidden when not allowed', () => {
    const page = renderPaymentPage(
      view({
        state: { ...PENDING, status: 'proof_requested', canConfirm: false, secondsLeft: null },
      }),
      ASSETS,
    );
    expect(page).toMatch(/<form\s+class="paid-form"[^>]*\shidden\s*>/);
    expect(page).toMatch(
      /<form\s+class="proof-form"(?![^>]*\shidden)[^>]*enctype="multipart\/form-data"[^>]*>/,
    );
    expect(page).toContain('Please upload your receipt');
  });

  it('renders Russian with lang="ru"', () => {
    const page = renderPaymentPage(view({ language: 'ru' }), ASSETS);
    expect(page).toContain('<html lang="ru"');
    expect(page).toContain('Я оплатил');
    expect(page).toContain('1\u202f500,00');
  });

  it('renders the not-found page in the language asked for', () => {
    expect(renderNotFoundPage('ru', ASSETS)).toContain('Платёж не найден');
    expect(renderNotFoundPage('en', ASSETS)).toContain('Payment not found');
  });
});

describe('QR code', () => {
  it('draws the payload as inline SVG without echoing its text, and links web payloads', async () => {
    const qr = await renderQr('https://qr.example/pay?x=<b>');
    expect(qr!.image.value).toMatch(/^<svg[^>]*>.*<\/svg>$/s);
    expect(qr!.image.value).not.toContain('qr.example');
    expect(qr!.link).toBe('https://qr.example/pay?x=%3Cb%3E');
    expect((await renderQr('ST00012|Name=Shop|PersonalAcc=40702810'))!.link).toBeNull();
  });

  it('shows a stored base64 image as it is, and nothing for other data URLs or no payload', async () => {
    expect((await renderQr('data:image/png;base64,iVBORw0KGgo='))!.image.value).toMatch(
      /^<img src="data:image\/png;base64,iVBORw0KGgo=" alt="" ?\/?>$/,
    );
    expect(await renderQr('data:image/svg+xml;base64,PHN2Zz4=')).toBeNull();
    expect(await renderQr('data:text/html,<script>')).toBeNull();
    expect(await renderQr(null)).toBeNull();
    expect(await renderQr('   ')).toBeNull();
  });

  it('shows no QR code for a payload too long to encode', async () => {
    expect(await renderQr('x'.repeat(5000))).toBeNull();
  });
});
