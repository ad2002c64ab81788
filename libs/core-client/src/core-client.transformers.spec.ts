import { AppException, ErrorCode } from '@app/errors';
import { parseCreateReply, parseStatusReply, transportFailure } from './core-client.transformers';
import type { CoreReply } from './core-client.types';
import replies from './fixtures/core-replies.json';

/**
 * Replies recorded from the real core (payinCreated, payinFoundByExternalId, duplicatePaymentId,
 * statusMoved, statusConflict, insufficientBalance, validationFailed, serviceTokenInvalid,
 * payoutAccessDisabled, payinAccessDisabled, merchantNotFound), plus
 * the failures a real core does not produce on demand (proxy pages, garbage, missing ids).
 */
const recorded = replies as Record<keyof typeof replies, CoreReply>;

function thrown(action: () => unknown): AppException {
  try {
    action();
  } catch (error) {
    if (error instanceof AppException) return error;
    throw error;
  }
  throw new Error('expected an AppException');
}

describe('core reply transformers', () => {
  describe('create replies', () => {
    it('reads the transaction id and whether it was created', () => {
      expect(parseCreateReply(recorded.payinCreated)).toEqual({
        transactionId: '8dfed6e5-2fd0-428a-a617-9bd72d7fbe87',
        created: true,
      });
      expect(parseCreateReply(recorded.payinFoundByExternalId)).toEqual({
        transactionId: '8dfed6e5-2fd0-428a-a617-9bd72d7fbe87',
        created: false,
      });
    });

    it('normalises the id to lowercase', () => {
      expect(parseCreateReply(recorded.createWithUppercaseId).transactionId).toBe(
        '0b5d7f3e-2c1a-4e8b-9f6d-3a2b1c0d9e8f',
      );
    });

    it.each(['createWithoutTransactionId', 'createWithMalformedTransactionId'] as const)(
      'turns %s into 500 ERROR_CORE_INVALID_RESPONSE',
      (name) => {
        const error = thrown(() => parseCreateReply(recorded[name]));
        expect(error.code).toBe(ErrorCode.CORE_INVALID_RESPONSE);
        expect(error.status).toBe(500);
      },
    );
  });

  describe('status replies', () => {
    it('reads the status after the move', () => {
      expect(parseStatusReply(recorded.statusMoved)).toEqual({
        transactionId: '8dfed6e5-2fd0-428a-a617-9bd72d7fbe87',
        status: 'canceled',
      });
    });
  });

  describe('core errors', () => {
    it.each([
      ['statusConflict', 409],
      ['insufficientBalance', 409],
      ['validationFailed', 400],
      ['internalError', 500],
    ] as const)('passes %s through with status %i and the core body as details', (name, status) => {
      const error = thrown(() => parseStatusReply(recorded[name]));
      expect(error.code).toBe(ErrorCode.CORE_REQUEST_FAILED);
      expect(error.status).toBe(status);
      expect(error.details).toEqual(JSON.parse(recorded[name].body));
    });

    it('keeps the code of a repeated paymentId with other parameters: 409 ERROR_DUPLICATE_PAYMENT_ID', () => {
      const error = thrown(() => parseCreateReply(recorded.duplicatePaymentId));
      expect(error.code).toBe(ErrorCode.DUPLICATE_PAYMENT_ID);
      expect(error.status).toBe(409);
      expect(error.details).toBeUndefined();
    });

    it.each([
      ['payoutAccessDisabled', ErrorCode.ACCESS_PAYOUT_DISABLED, 403],
      ['payinAccessDisabled', ErrorCode.ACCESS_PAYIN_DISABLED, 403],
      ['merchantNotFound', ErrorCode.MERCHANT_NOT_FOUND, 404],
    ] as const)(
      'passes the core refusing the merchant (%s) on as the guard would: %s, %i',
      (name, code, status) => {
        const error = thrown(() => parseCreateReply(recorded[name]));
        expect(error.code).toBe(code);
        expect(error.status).toBe(status);
        expect(error.details).toBeUndefined();
      },
    );

    it('does not take a merchant code with another status for the merchant refusal', () => {
      const reply = { ...recorded.payoutAccessDisabled, status: 401 };
      const error = thrown(() => parseCreateReply(reply));
      expect(error.code).toBe(ErrorCode.CORE_REQUEST_FAILED);
      expect(error.status).toBe(502);
    });

    it('answers 502 when the core refuses our service token, not 401 which would blame the merchant', () => {
      const error = thrown(() => parseCreateReply(recorded.serviceTokenInvalid));
      expect(error.code).toBe(ErrorCode.CORE_REQUEST_FAILED);
      expect(error.status).toBe(502);
    });
  });

  describe('unreadable replies', () => {
    it.each(['proxyErrorPage', 'htmlWithOkStatus', 'emptyOk', 'redirect'] as const)(
      'turns %s into 502 without passing the body on',
      (name) => {
        const error = thrown(() => parseStatusReply(recorded[name]));
        expect(error.code).toBe(ErrorCode.CORE_REQUEST_FAILED);
        expect(error.status).toBe(502);
        expect(JSON.stringify(error.details)).not.toContain('<');
        expect(error.details).toEqual(
          expect.objectContaining({ coreStatus: recorded[name].status }),
        );
      },
    );

    it('refuses a JSON array or a JSON string as a reply', () => {
      const base = { status: 200, contentType: 'application/json' };
      expect(thrown(() => parseCreateReply({ ...base, body: '[]' })).status).toBe(502);
      expect(thrown(() => parseCreateReply({ ...base, body: '"ok"' })).status).toBe(502);
    });

    it('refuses JSON text served with a non-JSON content type', () => {
      const reply = { status: 200, contentType: 'text/plain', body: recorded.payinCreated.body };
      expect(thrown(() => parseCreateReply(reply)).status).toBe(502);
    });
  });

  describe('no reply', () => {
    it.each(['ETIMEDOUT', 'ECONNABORTED'])('answers 504 for %s', (code) => {
      const error = transportFailure({ code, message: 'timeout of 100ms exceeded' });
      expect(error.code).toBe(ErrorCode.CORE_REQUEST_FAILED);
      expect(error.status).toBe(504);
    });

    it.each(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', undefined])(
      'answers 502 for %s',
      (code) => {
        const error = transportFailure({ code, message: 'connect ECONNREFUSED 127.0.0.1:1' });
        expect(error.status).toBe(502);
        expect(JSON.stringify(error.details)).not.toContain('127.0.0.1');
      },
    );
  });
});
