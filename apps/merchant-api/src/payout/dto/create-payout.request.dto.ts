import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsInt,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  Max,
  MaxLength,
  Validate,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import { isValidCardNumber } from '@app/crypto';
import { BlankAsAbsent, CheckedByGuard } from '../../common/transforms';
import { MAX_AMOUNT } from '../../payin/dto/create-payin.request.dto';

@ValidatorConstraint({ name: 'cardNumber' })
class CardNumberConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return isValidCardNumber(value);
  }

  defaultMessage(): string {
    return 'cardNumber must be 13 to 19 digits passing the Luhn check';
  }
}

/** merchant-api.md 4.6 with the bounds of decisions.md section 3. */
export class CreatePayoutRequestDto {
  @ApiProperty({
    example: 250,
    minimum: 0.01,
    maximum: MAX_AMOUNT,
    description:
      'Greater than 0, at most 2 decimal places, at most 1,000,000,000. Debited from the balance at once.',
  })
  @IsNumber(
    { allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 },
    { message: 'amount must be a number with at most 2 decimal places' },
  )
  @IsPositive()
  @Max(MAX_AMOUNT)
  amount: number;

  @ApiProperty({ example: 42, minimum: 1 })
  @IsInt()
  @IsPositive()
  @Max(Number.MAX_SAFE_INTEGER)
  clientId: number;

  @ApiProperty({
    example: '4111111111111111',
    description:
      'Recipient card: 13 to 19 digits, Luhn-valid. Stored encrypted, returned masked, never logged.',
  })
  @Validate(CardNumberConstraint)
  cardNumber: string;

  @ApiPropertyOptional({
    example: 'payout-77',
    maxLength: 255,
    description:
      'Your own payout id, returned as `externalId`; unique per store, like a payin `paymentId`.',
  })
  @BlankAsAbsent()
  @IsOptional()
  @IsString()
  @MaxLength(255)
  paymentId?: string;

  @ApiPropertyOptional({ example: 'Refund for order #1001', maxLength: 500 })
  @BlankAsAbsent()
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiProperty({ example: '9d2a…', description: 'See "Signing requests".' })
  @CheckedByGuard()
  signature: string;
}
