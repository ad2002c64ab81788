import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsEmail,
  IsIn,
  IsInt,
  IsIP,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
} from 'class-validator';
import { BlankAsAbsent, CheckedByGuard } from '../../common/transforms';

export const MAX_AMOUNT = 1_000_000_000;
const URL_OPTIONS = {
  protocols: ['http', 'https'],
  require_protocol: true,
  require_valid_protocol: true,
  require_tld: false,
};

/**
 * merchant-api.md 4.2 with the bounds of decisions.md section 3. Fields beyond this table are
 * accepted and ignored (the validation pipe strips them) but count in the signature, which is
 * checked before this DTO exists.
 */
export class CreatePayinRequestDto {
  @ApiProperty({
    example: 100.5,
    minimum: 0.01,
    maximum: MAX_AMOUNT,
    description: 'Greater than 0, at most 2 decimal places, at most 1,000,000,000.',
  })
  @IsNumber(
    { allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 },
    { message: 'amount must be a number with at most 2 decimal places' },
  )
  @IsPositive()
  @Max(MAX_AMOUNT)
  amount: number;

  @ApiProperty({
    example: 42,
    minimum: 1,
    description: "The merchant's id of its client: a positive integer.",
  })
  @IsInt()
  @IsPositive()
  @Max(Number.MAX_SAFE_INTEGER)
  clientId: number;

  @ApiPropertyOptional({ example: 'card', maxLength: 100, description: 'Gateway id.' })
  @BlankAsAbsent()
  @IsOptional()
  @IsString()
  @MaxLength(100)
  gate?: string;

  @ApiPropertyOptional({ example: 'card', maxLength: 100 })
  @BlankAsAbsent()
  @IsOptional()
  @IsString()
  @MaxLength(100)
  paymentMethod?: string;

  @ApiPropertyOptional({
    example: 'order-1001',
    maxLength: 255,
    description:
      "The merchant's own payment id, returned as `externalId`. Unique per store: a repeat with the same parameters returns the existing payin (200), with other parameters it is 409 ERROR_DUPLICATE_PAYMENT_ID.",
  })
  @BlankAsAbsent()
  @IsOptional()
  @IsString()
  @MaxLength(255)
  paymentId?: string;

  @ApiPropertyOptional({ example: 'Order #1001', maxLength: 500 })
  @BlankAsAbsent()
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiPropertyOptional({
    enum: [0, 1],
    example: 0,
    description:
      '1 marks a test payment: it never touches the balance; confirm settles it at once (failed when the cents are .13).',
  })
  @IsOptional()
  @IsIn([0, 1], { message: 'isTest must be 0 or 1' })
  isTest?: 0 | 1;

  @ApiPropertyOptional({ example: '203.0.113.7', description: 'IPv4 or IPv6 address.' })
  @BlankAsAbsent()
  @IsOptional()
  @IsIP()
  clientIp?: string;

  @ApiPropertyOptional({ example: 'payer@example.com', maxLength: 320 })
  @BlankAsAbsent()
  @IsOptional()
  @IsEmail()
  @MaxLength(320)
  clientEmail?: string;

  @ApiPropertyOptional({ example: 'Jane Payer', maxLength: 255 })
  @BlankAsAbsent()
  @IsOptional()
  @IsString()
  @MaxLength(255)
  clientName?: string;

  @ApiPropertyOptional({
    example: 'https://shop.example.com/paid',
    maxLength: 2048,
    description: 'Absolute http or https URL.',
  })
  @BlankAsAbsent()
  @IsOptional()
  @IsUrl(URL_OPTIONS)
  @MaxLength(2048)
  successUrl?: string;

  @ApiPropertyOptional({
    example: 'https://shop.example.com/failed',
    maxLength: 2048,
    description: 'Absolute http or https URL.',
  })
  @BlankAsAbsent()
  @IsOptional()
  @IsUrl(URL_OPTIONS)
  @MaxLength(2048)
  failureUrl?: string;

  @ApiPropertyOptional({
    example: 'https://shop.example.com/webhooks/gateway',
    maxLength: 2048,
    description: 'Absolute http or https URL; notified on every status change.',
  })
  @BlankAsAbsent()
  @IsOptional()
  @IsUrl(URL_OPTIONS)
  @MaxLength(2048)
  webhookUrl?: string;

  @ApiPropertyOptional({
    enum: ['get', 'post'],
    example: 'post',
    description: '`get` or `post`, any case.',
  })
  @BlankAsAbsent()
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.toLowerCase() : value,
  )
  @IsOptional()
  @IsIn(['get', 'post'], { message: 'webhookMethod must be get or post' })
  webhookMethod?: 'get' | 'post';

  @ApiPropertyOptional({ example: 'en', maxLength: 16 })
  @BlankAsAbsent()
  @IsOptional()
  @IsString()
  @MaxLength(16)
  language?: string;

  @ApiPropertyOptional({
    example: 'demo_pay_bot',
    pattern: '^[A-Za-z0-9_]{3,64}$',
    description: 'Messenger bot username; the payload then carries `paymentMessengerBot`.',
  })
  @BlankAsAbsent()
  @IsOptional()
  @Matches(/^[A-Za-z0-9_]{3,64}$/, {
    message: 'tgbotId must be 3 to 64 letters, digits or underscores',
  })
  tgbotId?: string;

  @ApiProperty({
    example: '50b812a3145ddafe5b91a5a8a9b6b069069a8665567c3fc0ee96bb1975e648b4',
    description: 'See "Signing requests".',
  })
  @CheckedByGuard()
  signature: string;
}
