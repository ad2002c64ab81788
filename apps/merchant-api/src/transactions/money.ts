import Decimal from 'decimal.js';

/**
 * A validated JSON amount (at most 2 decimals) as the core's decimal string. The number's
 * shortest text form is exact for such values; Decimal only fixes the scale, never a float sum.
 */
export function toDecimalString(amount: number): string {
  return new Decimal(String(amount)).toFixed(2);
}
