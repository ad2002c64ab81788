import { randomBytes } from 'node:crypto';
import { FieldCipher, verifyFileUrl } from '@app/crypto';
import {
  formatTimestamp,
  PayloadSettings,
  toTransactionPayload,
} from './transaction-payload.mapper';
import type { TransactionRecord } from './transaction.record';

const cipher = new FieldCipher(randomBytes(32));
const settings: PayloadSettings = {
  publicBaseUrl: 'https://pay.example.com/',
  messengerBotBaseUrl: 'https://t.me',
  fileUrlKey: 'file-url-key-for-tests',
  fileUrlTtlSeconds: 3600,
  openCardNumber: (sealed) => cipher.decrypt(sealed),
};
const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);

function payin(overrides: Partial<TransactionRecord> = {}): TransactionRecord {
  return {
    id: '0b5d7f3e-2c1a-4e8b-9f6d-3a2b1c0d9e8f',
    type: 'payin',
    merchantId: 7,
    storeId: 12,
    externalId: null,
    status: 'pending',
    amount: '100.50',
    currency: 'USD',
    exchangeRate: '1.00000000',
    description: null,
    isTest: false,
    clientId: '42',
    clientEmail: 'payer@example.com',
    clientName: null,
    clientIp: null,
    clientUserAgent: null,
    clientCountry: null,
    clientCity: null,
    tgbotId: null,
    payCardName: 'TEST RECEIVER',
    payBankName: 'Test Bank',
    payCardNumberMasked: '411111******1111',
    payCardNumberEnc: cipher.encrypt('4111111111111111'),
    payPhoneNumber: null,
    payQrCode: null,
    payAccountNumber: null,
    payIbanNumber: null,
    proofRequested: false,
    proofFileKey: null,
    proofMimeType: null,
    proofFileName: null,
    expiresAt: '2026-11-23T12:30:00.000Z',
    createdAt: '2026-01-02T03:04:05.678Z',
    updatedAt: '2026-12-31T23:59:59.999Z',
    ...overrides,
  };
}

describe('TransactionPayload mapper (merchant-api.md 2.1)', () => {
  it('has exactly the contract keys, in the contract types', () => {
    const payload = toTransactionPayload(payin(), settings, NOW);
    expect(Object.keys(payload)).toEqual([
      'createdAt',
      'updatedAt',
      'expiresAt',
      'merchantId',
      'transactionId',
      'status',
      'amount',
      'currency',
      'exchangeRate',
      'description',
      'isTest',
      'paymentPage',
      'payment',
      'client',
      'proof',
    ]);
    expect(Object.keys(payload.payment)).toEqual([
      'cardName',
      'bankName',
      'cardNumber',
      'phoneNumber',
      'qrCode',
      'accountNumber',
      'ibanNumber',
    ]);
    expect(Object.keys(payload.client)).toEqual([
      'id',
      'email',
      'name',
      'ip',
      'userAgent',
      'country',
      'city',
    ]);
    expect(payload).toMatchObject({
      merchantId: 7,
      amount: 100.5,
      exchangeRate: 1,
      isTest: false,
      status: 'pending',
    });
  });

  it('writes timestamps as dd.mm.yyyy HH:mm:ss in UTC', () => {
    const payload = toTransactionPayload(payin(), settings, NOW);
    expect(payload.createdAt).toBe('02.01.2026 03:04:05');
    expect(payload.updatedAt).toBe('31.12.2026 23:59:59');
    expect(payload.expiresAt).toBe('23.11.2026 12:30:00');
    expect(formatTimestamp(new Date(Date.UTC(2027, 0, 9, 7, 8, 9)))).toBe('09.01.2027 07:08:09');
  });

  it('gives a payout, which has no payer, null expiresAt and paymentPage', () => {
    const payout = toTransactionPayload(payin({ type: 'payout', expiresAt: null }), settings, NOW);
    expect(payout.expiresAt).toBeNull();
    expect(payout.paymentPage).toBeNull();
  });

  it('returns amounts as JSON numbers, exactly', () => {
    for (const [stored, expected] of [
      ['0.01', 0.01],
      ['1000000000.00', 1_000_000_000],
      ['100.13', 100.13],
      ['999999999.99', 999_999_999.99],
    ] as const) {
      expect(toTransactionPayload(payin({ amount: stored }), settings, NOW).amount).toBe(expected);
    }
  });

  it('returns client.id as a string', () => {
    expect(
      toTransactionPayload(payin({ clientId: '9007199254740991' }), settings, NOW).client.id,
    ).toBe('9007199254740991');
  });

  it('never returns a full card number: masked column, or the sealed one masked', () => {
    expect(toTransactionPayload(payin(), settings, NOW).payment.cardNumber).toBe(
      '411111******1111',
    );
    const legacy = toTransactionPayload(
      payin({ payCardNumberMasked: null, payCardNumberEnc: cipher.encrypt('5555555555554444') }),
      settings,
      NOW,
    );
    expect(legacy.payment.cardNumber).toBe('555555******4444');
    expect(
      toTransactionPayload(
        payin({ payCardNumberMasked: null, payCardNumberEnc: null }),
        settings,
        NOW,
      ).payment.cardNumber,
    ).toBeNull();
  });

  it('adds externalId only when the payin was created with a paymentId', () => {
    expect(toTransactionPayload(payin(), settings, NOW)).not.toHaveProperty('externalId');
    expect(toTransactionPayload(payin({ externalId: 'order-1' }), settings, NOW).externalId).toBe(
      'order-1',
    );
  });

  it('links the payment page under PUBLIC_BASE_URL', () => {
    expect(toTransactionPayload(payin(), settings, NOW).paymentPage).toBe(
      'https://pay.example.com/pay/0b5d7f3e-2c1a-4e8b-9f6d-3a2b1c0d9e8f',
    );
  });

  it('adds paymentMessengerBot only with a tgbotId, with tid set to the transaction id', () => {
    expect(toTransactionPayload(payin(), settings, NOW)).not.toHaveProperty('paymentMessengerBot');
    const payload = toTransactionPayload(payin({ tgbotId: 'demo_pay_bot' }), settings, NOW);
    expect(payload.paymentMessengerBot).toBe(
      'https://t.me/demo_pay_bot?tid=0b5d7f3e-2c1a-4e8b-9f6d-3a2b1c0d9e8f',
    );
    expect(new URL(payload.paymentMessengerBot!).searchParams.get('tid')).toBe(
      payload.transactionId,
    );
  });

  it('has proof.file null until a proof is stored, then an expiring signed link the core will accept', () => {
    expect(toTransactionPayload(payin(), settings, NOW).proof).toEqual({ ping: false, file: null });
    const payload = toTransactionPayload(
      payin({
        proofRequested: true,
        proofFileKey: 'f3a9c1.png',
        proofMimeType: 'image/png',
        proofFileName: 'receipt.png',
      }),
      settings,
      NOW,
    );
    expect(payload.proof.ping).toBe(true);
    expect(payload.proof.file).toMatchObject({ mimeType: 'image/png', fileName: 'receipt.png' });
    const url = new URL(payload.proof.file!.fileUrl);
    expect(`${url.origin}${url.pathname}`).toBe('https://pay.example.com/files/f3a9c1.png');
    expect(
      verifyFileUrl(
        'f3a9c1.png',
        url.searchParams.get('expires') ?? undefined,
        url.searchParams.get('sig') ?? undefined,
        settings.fileUrlKey,
        NOW,
      ),
    ).toBe('ok');
    expect(
      verifyFileUrl(
        'f3a9c1.png',
        url.searchParams.get('expires') ?? undefined,
        url.searchParams.get('sig') ?? undefined,
        'another-key',
        NOW,
      ),
    ).toBe('invalid');
  });
});
