import { ValidateIf } from 'class-validator';

/**
 * Optional, but not nullable: unlike @IsOptional it still validates an explicit null, so a
 * `null` sent for a NOT NULL column is a 400 naming the field rather than a database error.
 */
export function OptionalNotNull(): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined);
}
