import { AppException, ErrorCode } from '@app/errors';
import { readReplayParams } from './replay-protection';

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);
const nowSeconds = NOW / 1000;
const options = { required: false, windowSeconds: 300, nowMs: NOW };

function failure(params: Record<string, unknown>, required = false): AppException {
  try {
    readReplayParams(params, { ...options, required });
  } catch (error) {
    if (error instanceof AppException) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('replay protection (decisions.md section 3)', () => {
  it('is opt-in: a request without timestamp and nonce passes', () => {
    expect(readReplayParams({ amount: 1 }, options)).toEqual({});
  });

  it('accepts a timestamp exactly 300 s off either way, refuses 301 s', () => {
    expect(readReplayParams({ timestamp: nowSeconds - 300 }, options)).toEqual({
      timestamp: nowSeconds - 300,
    });
    expect(readReplayParams({ timestamp: String(nowSeconds + 300) }, options)).toEqual({
      timestamp: nowSeconds + 300,
    });
    expect(failure({ timestamp: nowSeconds - 301 }).code).toBe(ErrorCode.SIGNATURE_EXPIRED);
    expect(failure({ timestamp: nowSeconds + 301 }).code).toBe(ErrorCode.SIGNATURE_EXPIRED);
  });

  it('refuses a timestamp that is not whole Unix seconds', () => {
    for (const timestamp of ['soon', nowSeconds + 0.5, '1e9', -5, { t: 1 }]) {
      const error = failure({ timestamp });
      expect(error.code).toBe(ErrorCode.SIGNATURE_EXPIRED);
      expect(error.status).toBe(401);
    }
  });

  it('passes the nonce on as text, 1 to 128 characters', () => {
    expect(readReplayParams({ nonce: 12345 }, options)).toEqual({ nonce: '12345' });
    expect(readReplayParams({ nonce: 'n'.repeat(128) }, options)).toEqual({
      nonce: 'n'.repeat(128),
    });
    expect(failure({ nonce: 'n'.repeat(129) }).code).toBe(ErrorCode.SIGNATURE_INVALID);
    expect(failure({ nonce: ['a'] }).code).toBe(ErrorCode.SIGNATURE_INVALID);
  });

  it('requires both fields when the store demands it, naming the missing ones', () => {
    const error = failure({ timestamp: nowSeconds }, true);
    expect(error.code).toBe(ErrorCode.SIGNATURE_REQUIRED);
    expect(error.status).toBe(401);
    expect(error.details).toEqual([{ field: 'nonce', errors: [expect.any(String)] }]);
    expect(
      readReplayParams({ timestamp: nowSeconds, nonce: 'abc' }, { ...options, required: true }),
    ).toEqual({ timestamp: nowSeconds, nonce: 'abc' });
  });
});
