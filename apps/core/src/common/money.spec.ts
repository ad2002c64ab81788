import {
  AMOUNT_PATTERN,
  formatMoney,
  formatRate,
  money,
  payinFee,
  settlementAmount,
  SIGNED_AMOUNT_PATTERN,
  toCents,
} from './money';

describe('money rules (docs/money.md)', () => {
  it('rounds to cents half away from zero, never through a float', () => {
    expect(toCents(money('0.005')).toFixed(2)).toBe('0.01');
    expect(toCents(money('0.004999')).toFixed(2)).toBe('0.00');
    expect(toCents(money('-0.005')).toFixed(2)).toBe('-0.01');
    expect(toCents(money('1.015')).toFixed(2)).toBe('1.02');
    // 1.005 is 1.00499999999999989... as a double: a float would round it down.
    expect(toCents(money('1.005')).toFixed(2)).toBe('1.01');
  });

  it('settles a transaction at its exchange rate, rounded once', () => {
    expect(settlementAmount('100.00', '1').toFixed(2)).toBe('100.00');
    expect(settlementAmount('10.01', '1.5').toFixed(2)).toBe('15.02');
    expect(settlementAmount('0.01', '0.5').toFixed(2)).toBe('0.01');
    expect(settlementAmount('0.01', '0.4').toFixed(2)).toBe('0.00');
    expect(settlementAmount('999999999.99', '1.23456789').toFixed(2)).toBe('1234567889.99');
  });

  it('takes the payin fee as a percent of the settled amount, rounded on its own', () => {
    expect(payinFee(money('100.00'), '2.5').toFixed(2)).toBe('2.50');
    expect(payinFee(money('15.02'), '1').toFixed(2)).toBe('0.15');
    expect(payinFee(money('0.10'), '5').toFixed(2)).toBe('0.01');
    expect(payinFee(money('0.09'), '5').toFixed(2)).toBe('0.00');
    expect(payinFee(money('100.00'), '0').toFixed(2)).toBe('0.00');
    expect(payinFee(money('0.01'), '99.99').lessThanOrEqualTo('0.01')).toBe(true);
  });

  it('keeps the fee at or below the credit for any percent below 100', () => {
    for (const amount of ['0.01', '0.02', '0.99', '1.00', '12.34']) {
      for (const percent of ['0', '0.01', '49.99', '50', '99.99']) {
        expect(payinFee(money(amount), percent).lessThanOrEqualTo(amount)).toBe(true);
      }
    }
  });

  it('formats NUMERIC(20,2) and rates without padding or exponents', () => {
    expect(formatMoney('5')).toBe('5.00');
    expect(formatMoney(money('-0.5'))).toBe('-0.50');
    expect(formatRate('1.00000000')).toBe('1');
    expect(formatRate('0.00000001')).toBe('0.00000001');
  });

  it('accepts amounts with at most 2 decimals, no sign (unless signed), no exponent, no leading zeros', () => {
    for (const ok of ['0', '1', '1.5', '1.50', '1000000000', '0.01'])
      expect(AMOUNT_PATTERN.test(ok)).toBe(true);
    for (const bad of ['-1', '1.234', '1e3', '01', '.5', '1.', ' 1', ''])
      expect(AMOUNT_PATTERN.test(bad)).toBe(false);
    expect(SIGNED_AMOUNT_PATTERN.test('-1.25')).toBe(true);
    expect(SIGNED_AMOUNT_PATTERN.test('--1')).toBe(false);
  });
});
