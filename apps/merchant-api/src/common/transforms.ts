import { Transform } from 'class-transformer';
import { Allow } from 'class-validator';

/**
 * merchant-api.md 5.1: "a field without a value must be omitted", and the signature already
 * ignores empty and whitespace-only strings. Validation treats them the same way: as absent.
 */
export function BlankAsAbsent(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && value.trim() === '' ? undefined : value,
  );
}

/**
 * A query-string integer: only plain digits become a number; anything else (`1.5`, `1e3`, `abc`,
 * a repeated parameter) stays as sent and fails @IsInt, so it is reported rather than guessed at.
 * No implicit conversion (STYLE.md).
 */
export function QueryInteger(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => {
    if (typeof value === 'string' && value.trim() === '') return undefined;
    return typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value;
  });
}

/**
 * `signature`, `timestamp` and `nonce`: the auth guard checks them before the DTO exists, so the
 * DTO takes them as sent. Marked allowed so that the validation pipe's whitelist keeps them: it
 * deleted them from every request's DTO (class fields exist even when not sent), which V8 then
 * kept as a slow dictionary-mode object (docs/benchmarks.md).
 */
export function CheckedByGuard(): PropertyDecorator {
  return Allow();
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
