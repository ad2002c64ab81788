import Decimal from 'decimal.js';

/**
 * Money arithmetic of the core (docs/money.md). Amounts are NUMERIC(20,2) in PostgreSQL and
 * decimal strings on the wire; in code they are Decimal, never a JS number.
 */
const Money = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Money = Decimal;

/** Largest amount a payin or payout may carry (decisions.md section 3). */
export const MAX_TRANSACTION_AMOUNT = new Money('1000000000');

/** A non-negative decimal string with at most 2 decimal places, no sign, no exponent. */
export const AMOUNT_PATTERN = /^(0|[1-9]\d{0,12})(\.\d{1,2})?$/;
/** The same, with an optional leading minus: balance adjustments. */
export const SIGNED_AMOUNT_PATTERN = /^-?(0|[1-9]\d{0,12})(\.\d{1,2})?$/;

export function money(value: string | number | Decimal): Decimal {
  return new Money(value);
}

/** Rounds to cents, half away from zero (docs/money.md, rule 1). */
export function toCents(value: Decimal): Decimal {
  return new Money(value).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/** The NUMERIC(20,2) text form: always two decimals. */
export function formatMoney(value: Decimal | string): string {
  return new Money(value).toFixed(2);
}

/** An exchange rate without NUMERIC's padding or an exponent: `1.25000000` → `1.25`. */
export function formatRate(value: Decimal | string): string {
  return new Money(value).toFixed();
}

/** A JSON number for responses; exact for NUMERIC(20,2) values below 2^53 cents. */
export function moneyToNumber(value: Decimal | string): number {
  return Number(new Money(value).toFixed(2));
}

/**
 * What one transaction moves on the store's balance (docs/money.md): the amount converted at the
 * transaction's exchange rate, rounded to cents, and for payins the fee on that converted amount,
 * rounded to cents on its own. The fee never exceeds the credit because the percent is below 100.
 */
export function settlementAmount(
  amount: string | Decimal,
  exchangeRate: string | Decimal,
): Decimal {
  return toCents(new Money(amount).times(exchangeRate));
}

export function payinFee(settled: Decimal, feePercent: string | Decimal): Decimal {
  return toCents(settled.times(feePercent).dividedBy(100));
}
