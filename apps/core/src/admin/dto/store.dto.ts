import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { IsMoney } from '../../common/money.validation';
import { OptionalNotNull } from '../../common/validation';

const CURRENCY = /^[A-Z]{3}$/;

export class CreateStoreDto {
  @ApiProperty({ example: 'Main shop', maxLength: 200 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name: string;

  @ApiPropertyOptional({
    example: 'USD',
    description: 'ISO 4217 code; DEFAULT_CURRENCY when omitted',
  })
  @OptionalNotNull()
  @Matches(CURRENCY, { message: 'currency must be a 3-letter upper-case code' })
  currency?: string;
}

export class UpdateStoreSettingsDto {
  @ApiPropertyOptional({ example: 'EUR' })
  @OptionalNotNull()
  @Matches(CURRENCY, { message: 'currency must be a 3-letter upper-case code' })
  currency?: string;

  @ApiPropertyOptional({
    example: '1.08',
    description: 'Positive decimal below 1000000, up to 8 decimal places',
  })
  @OptionalNotNull()
  @Matches(/^(0|[1-9]\d{0,5})(\.\d{1,8})?$/, {
    message: 'exchangeRate must be a positive decimal below 1000000 with at most 8 decimal places',
  })
  @Matches(/[1-9]/, { message: 'exchangeRate must be greater than zero' })
  exchangeRate?: string;

  @ApiPropertyOptional({
    example: '2.5',
    description: 'Percent of each successful payin booked as `payin_fee`, 0 to 99.99',
  })
  @OptionalNotNull()
  @IsMoney({ allowZero: true, max: '99.99' })
  payinFeePercent?: string;

  @ApiPropertyOptional({
    nullable: true,
    example: 1800,
    description: 'Payin lifetime in seconds; null restores PAYIN_TTL_SECONDS',
  })
  @IsOptional()
  @ValidateIf((_dto, value) => value !== null)
  @IsInt()
  @Min(1)
  @Max(30 * 24 * 3600)
  payinTtlSeconds?: number | null;

  @ApiPropertyOptional({ description: 'Refuse signed requests without timestamp and nonce' })
  @OptionalNotNull()
  @IsBoolean()
  requireReplayProtection?: boolean;
}

export class CreateAdjustmentDto {
  @ApiProperty({
    example: '100.00',
    description: 'Signed amount, at most 2 decimal places; a JSON number is accepted too',
  })
  @IsMoney({ signed: true })
  amount: string;

  @ApiPropertyOptional({ maxLength: 500 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(500)
  comment?: string;
}
