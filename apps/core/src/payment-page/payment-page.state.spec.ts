import type { PayinStatus } from '@app/database';
import {
  effectiveStatus,
  messengerBotUrl,
  pageState,
  safeHttpUrl,
  statusBody,
  type PagePayin,
} from './payment-page.state';

const NOW = new Date('2026-01-01T12:00:00Z');

function payin(overrides: Partial<PagePayin> = {}): PagePayin {
  return {
    id: '3f1c2a4e-0000-4000-8000-000000000001',
    status: 'pending',
    amount: '100.00',
    currency: 'USD',
    description: null,
    isTest: false,
    language: null,
    expiresAt: new Date(NOW.getTime() + 90_500),
    successUrl: 'https://shop.example/ok',
    failureUrl: 'https://shop.example/fail',
    tgbotId: null,
    payCardName: null,
    payBankName: null,
    payCardNumberEnc: null,
    payPhoneNumber: null,
    payQrCode: null,
    payAccountNumber: null,
    payIbanNumber: null,
    ...overrides,
  };
}

describe('payment page state', () => {
  it('counts whole seconds down to expiresAt while pending', () => {
    expect(pageState(payin(), NOW)).toEqual({
      status: 'pending',
      final: false,
      secondsLeft: 90,
      canConfirm: true,
      canUpload: true,
      redirectUrl: null,
    });
  });

  it('shows a pending payin past its expiresAt as expired before the expiry job moves it', () => {
    const late = payin({ expiresAt: new Date(NOW.getTime() - 1) });
    expect(effectiveStatus(late, NOW)).toBe('expired');
    expect(pageState(late, NOW)).toMatchObject({
      status: 'expired',
      final: true,
      secondsLeft: null,
      canConfirm: false,
      canUpload: false,
    });
    expect(pageState(payin({ expiresAt: NOW }), NOW).status).toBe('expired');
  });

  it.each<[PayinStatus, boolean, boolean, boolean]>([
    ['pending', false, true, true],
    ['processing', false, false, false],
    ['proof_requested', false, false, true],
    ['success', true, false, false],
    ['failed', true, false, false],
    ['canceled', true, false, false],
    ['expired', true, false, false],
  ])('%s: final %p, "I have paid" %p, receipt %p', (status, final, canConfirm, canUpload) => {
    expect(pageState(payin({ status }), NOW)).toMatchObject({
      status,
      final,
      canConfirm,
      canUpload,
    });
  });

  it('has no countdown once the payer has acted (the payin no longer expires)', () => {
    expect(pageState(payin({ status: 'processing' }), NOW).secondsLeft).toBeNull();
  });

  it('redirects to successUrl on success and to failureUrl on every other final status', () => {
    expect(pageState(payin({ status: 'success' }), NOW).redirectUrl).toBe(
      'https://shop.example/ok',
    );
    for (const status of ['failed', 'canceled', 'expired'] as const) {
      expect(pageState(payin({ status }), NOW).redirectUrl).toBe('https://shop.example/fail');
    }
    expect(pageState(payin({ status: 'processing' }), NOW).redirectUrl).toBeNull();
    expect(pageState(payin({ status: 'success', successUrl: null }), NOW).redirectUrl).toBeNull();
  });

  it('never redirects to anything but an absolute http(s) URL', () => {
    expect(safeHttpUrl('javascript:alert(1)')).toBeNull();
    expect(safeHttpUrl('data:text/html,<script>')).toBeNull();
    expect(safeHttpUrl('/relative')).toBeNull();
    expect(safeHttpUrl('http://127.0.0.1:8080/done?a=1')).toBe('http://127.0.0.1:8080/done?a=1');
    expect(
      pageState(payin({ status: 'success', successUrl: 'javascript:alert(1)' }), NOW).redirectUrl,
    ).toBeNull();
  });

  it('words the status in the payin language and adds the notice', () => {
    const body = statusBody(pageState(payin({ status: 'processing' }), NOW), 'ru', 'paid_reported');
    expect(body).toMatchObject({
      status: 'processing',
      title: 'Проверяем оплату',
      notice: 'Спасибо! Проверяем вашу оплату.',
    });
    expect(statusBody(pageState(payin(), NOW), 'en')).not.toHaveProperty('notice');
  });
});

describe('messenger bot link', () => {
  it('is <base>/<tgbotId>?tid=<transactionId>, and absent without a bot', () => {
    expect(messengerBotUrl('https://t.me', 'shop_bot', 'abc')).toBe(
      'https://t.me/shop_bot?tid=abc',
    );
    expect(messengerBotUrl('https://t.me/', 'shop_bot', 'abc')).toBe(
      'https://t.me/shop_bot?tid=abc',
    );
    expect(messengerBotUrl('https://t.me', null, 'abc')).toBeNull();
  });
});
