import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { Transaction } from '@app/database';
import { verify } from '@app/signature';
import { buildWebhookFields, buildWebhookRequest, formatTimestamp } from './webhook-payload';

const PRIVATE_TOKEN = 'sk_test_private_token';
const SECRET = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
const EVENT_ID = '0b6f3c9e-2f0a-4d1e-8c55-6a1d2e3f4b5c';

function transaction(overrides: Partial<Transaction> = {}): Transaction {
  return {
    id: '6f1c2d9e-4b7a-4c1e-9a3b-2f8d5e7c1a90',
    type: 'payin',
    status: 'success',
    amount: '100.50',
    currency: 'USD',
    isTest: false,
    externalId: 'order-17',
    updatedAt: new Date('2026-03-04T05:06:07.890Z'),
    ...overrides,
  } as Transaction;
}

/** The merchant-api.md 5.1 string written out by hand for these exact fields. */
const HAND_CANONICAL =
  `amount=100.5&currency=USD&eventId=${EVENT_ID}&externalId=order-17&isTest=false` +
  `&status=success&transactionId=6f1c2d9e-4b7a-4c1e-9a3b-2f8d5e7c1a90&type=payin&updatedAt=04.03.2026 05:06:07`;
const hmac = (message: string): string =>
  createHmac('sha256', PRIVATE_TOKEN).update(message).digest('hex');

describe('formatTimestamp', () => {
  it('writes dd.mm.yyyy HH:mm:ss in UTC with zero padding', () => {
    expect(formatTimestamp(new Date('2026-01-02T03:04:05.999Z'))).toBe('02.01.2026 03:04:05');
  });
});

describe('buildWebhookFields', () => {
  it('carries the decisions.md fields with the amount as a JSON number', () => {
    expect(buildWebhookFields(EVENT_ID, transaction())).toEqual({
      eventId: EVENT_ID,
      type: 'payin',
      transactionId: '6f1c2d9e-4b7a-4c1e-9a3b-2f8d5e7c1a90',
      externalId: 'order-17',
      status: 'success',
      amount: 100.5,
      currency: 'USD',
      isTest: false,
      updatedAt: '04.03.2026 05:06:07',
    });
  });

  it('leaves externalId out when the merchant gave none', () => {
    expect(buildWebhookFields(EVENT_ID, transaction({ externalId: null }))).not.toHaveProperty(
      'externalId',
    );
  });
});

describe('buildWebhookRequest', () => {
  const fields = { ...buildWebhookFields(EVENT_ID, transaction()) };
  const now = new Date();

  describe('post', () => {
    const request = buildWebhookRequest(
      { id: EVENT_ID, url: 'https://shop.example/hook', method: 'post', payload: fields },
      PRIVATE_TOKEN,
      SECRET,
      now,
    );
    const body = JSON.parse(request.body!) as Record<string, unknown>;

    it('sends the fields and their signature as JSON, with x-webhook-id', () => {
      expect(request.method).toBe('POST');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['x-webhook-id']).toBe(EVENT_ID);
      expect(body).toEqual({ ...fields, signature: expect.stringMatching(/^[0-9a-f]{64}$/) });
    });

    it('signs so that libs/signature and a hand-computed HMAC both verify', () => {
      expect(verify(body, PRIVATE_TOKEN, body.signature)).toBe(true);
      expect(body.signature).toBe(hmac(HAND_CANONICAL));
      expect(verify(body, 'another token', body.signature)).toBe(false);
    });

    it('carries Standard Webhooks headers that the standardwebhooks package verifies', () => {
      expect(request.headers['webhook-id']).toBe(EVENT_ID);
      expect(request.headers['webhook-timestamp']).toBe(String(Math.floor(now.getTime() / 1000)));
      expect(new Webhook(SECRET).verify(request.body!, request.headers)).toEqual(body);
      const otherSecret = `whsec_${Buffer.from('another secret of enough length!').toString('base64')}`;
      expect(() => new Webhook(otherSecret).verify(request.body!, request.headers)).toThrow();
      expect(() =>
        new Webhook(SECRET).verify(request.body!.replace('100.5', '100.6'), request.headers),
      ).toThrow();
    });

    it('writes the body in the documented field order whatever order the payload was stored in', () => {
      const shuffled = Object.fromEntries(Object.entries(fields).reverse());
      const reordered = buildWebhookRequest(
        { id: EVENT_ID, url: 'https://shop.example/hook', method: 'post', payload: shuffled },
        PRIVATE_TOKEN,
        SECRET,
        now,
      );
      expect(Object.keys(JSON.parse(reordered.body!))).toEqual([
        'eventId',
        'type',
        'transactionId',
        'externalId',
        'status',
        'amount',
        'currency',
        'isTest',
        'updatedAt',
        'signature',
      ]);
    });

    it('never signs a stored signature field along', () => {
      const withStale = buildWebhookRequest(
        {
          id: EVENT_ID,
          url: 'https://shop.example/hook',
          method: 'post',
          payload: { ...fields, signature: 'stale' },
        },
        PRIVATE_TOKEN,
        SECRET,
        now,
      );
      expect(JSON.parse(withStale.body!).signature).toBe(hmac(HAND_CANONICAL));
    });
  });

  describe('get', () => {
    it('sends the same fields as query parameters, signed like a merchant GET', () => {
      const request = buildWebhookRequest(
        { id: EVENT_ID, url: 'https://shop.example/hook', method: 'get', payload: fields },
        PRIVATE_TOKEN,
        SECRET,
        now,
      );
      expect(request.method).toBe('GET');
      expect(request.body).toBeUndefined();
      expect(request.headers['x-webhook-id']).toBe(EVENT_ID);
      expect(request.headers['webhook-signature']).toBeUndefined();
      const query = Object.fromEntries(new URL(request.url).searchParams.entries());
      expect(query).toEqual({
        ...Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, String(value)])),
        signature: hmac(HAND_CANONICAL),
      });
      expect(verify(query, PRIVATE_TOKEN, query.signature)).toBe(true);
    });

    it("keeps the URL's own query parameters and covers them by the signature", () => {
      const request = buildWebhookRequest(
        {
          id: EVENT_ID,
          url: 'https://shop.example/hook?shop=7#frag',
          method: 'get',
          payload: fields,
        },
        PRIVATE_TOKEN,
        SECRET,
        now,
      );
      const url = new URL(request.url);
      expect(url.hash).toBe('');
      const query = Object.fromEntries(url.searchParams.entries());
      expect(query.shop).toBe('7');
      expect(query.signature).toBe(
        hmac(`${HAND_CANONICAL.replace('&status=', '&shop=7&status=')}`),
      );
      expect(verify(query, PRIVATE_TOKEN, query.signature)).toBe(true);
    });
  });
});
