import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Constant-time comparison of a presented bearer token with the configured one. Both sides are
 * hashed first so that neither the length nor the content leaks through timing.
 */
export function tokensMatch(presented: string, expected: string): boolean {
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
