import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { registerDecorator, ValidationOptions } from 'class-validator';
import { AMOUNT_PATTERN, MAX_TRANSACTION_AMOUNT, money, SIGNED_AMOUNT_PATTERN } from './money';

interface MoneyRule {
  /** Allows a leading minus (balance adjustments). */
  signed?: boolean;
  /** Allows zero (limits on payment details). */
  allowZero?: boolean;
  max?: string;
}

/**
 * A money field: a decimal string (or, for operators typing JSON by hand, a JSON number) with at
 * most 2 decimal places, never zero unless allowed, within the bound. The value reaching the
 * handler is always a string, so it never passes through float arithmetic afterwards.
 */
export function IsMoney(rule: MoneyRule = {}, options?: ValidationOptions): PropertyDecorator {
  const pattern = rule.signed ? SIGNED_AMOUNT_PATTERN : AMOUNT_PATTERN;
  const max = money(rule.max ?? MAX_TRANSACTION_AMOUNT);
  const describe = `a decimal ${rule.signed ? '' : 'non-negative '}amount with at most 2 decimal places${rule.allowZero ? '' : ', not zero'}, at most ${max.toFixed(0)} in size`;
  return applyDecorators(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'number' && Number.isFinite(value) ? String(value) : value,
    ),
    (target: object, propertyName: string | symbol) => {
      registerDecorator({
        name: 'isMoney',
        target: target.constructor,
        propertyName: propertyName as string,
        options: { message: `$property must be ${describe}`, ...options },
        validator: {
          validate(value: unknown): boolean {
            if (typeof value !== 'string' || !pattern.test(value)) return false;
            const amount = money(value);
            if (!rule.allowZero && amount.isZero()) return false;
            return amount.abs().lessThanOrEqualTo(max);
          },
        },
      });
    },
  );
}
