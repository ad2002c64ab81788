import { createHmac, timingSafeEqual } from 'node:crypto';

/** Parameters as a merchant sends them: a query object or a parsed JSON body. */
export type SignableParams = Record<string, unknown>;

/**
 * Canonical message of merchant-api.md section 5.1: drop `signature`, drop null, undefined
 * and empty or whitespace-only strings, sort keys ascending, join `k=v` with `&`.
 * Strings are taken as sent (untrimmed, not URL-encoded); objects and arrays as compact JSON;
 * numbers and booleans in their plain string form.
 */
export function canonicalMessage(params: SignableParams): string {
  return Object.keys(params)
    .filter((key) => key !== 'signature' && isPresent(params[key]))
    .sort()
    .map((key) => `${key}=${stringifyValue(params[key])}`)
    .join('&');
}

/** Lowercase hex HMAC-SHA256 of the canonical message, keyed by the private token. */
export function sign(params: SignableParams, privateToken: string): string {
  return createHmac('sha256', privateToken).update(canonicalMessage(params), 'utf8').digest('hex');
}

/** Payload of a path endpoint (`/payin/{transactionId}` and the like): only `transactionId`. */
export function pathPayload(transactionId: string): SignableParams {
  return { transactionId };
}

/** Timing-safe comparison of a received signature with the expected one. */
export function verify(params: SignableParams, privateToken: string, received: unknown): boolean {
  if (typeof received !== 'string') return false;
  const expected = Buffer.from(sign(params, privateToken), 'utf8');
  const given = Buffer.from(received, 'utf8');
  // timingSafeEqual needs equal lengths; comparing against itself keeps the time constant.
  if (given.length !== expected.length) {
    timingSafeEqual(expected, expected);
    return false;
  }
  return timingSafeEqual(expected, given);
}

function isPresent(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'string') return value.trim() !== '';
  return true;
}

function stringifyValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
