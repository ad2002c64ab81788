import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsIP,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { IsMoney } from '../../common/money.validation';

const URL_OPTIONS = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };

export class CreatePayinRequestDto {
  @ApiProperty({ example: 1 })
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  storeId: number;

  @ApiProperty({
    example: '100.50',
    description: 'Decimal string, > 0, at most 2 decimal places, at most 1000000000',
  })
  @IsMoney()
  amount: string;

  @ApiProperty({ example: '42', description: "The merchant's client id, digits" })
  @Matches(/^\d{1,32}$/, { message: 'clientId must be a string of 1 to 32 digits' })
  clientId: string;

  @ApiPropertyOptional({
    description: "The merchant's paymentId; unique per store",
    maxLength: 255,
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  externalId?: string;

  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiPropertyOptional({
    description: 'Test payin: never touches the balance; confirm settles it (cents .13 fail)',
  })
  @IsOptional()
  @IsBoolean()
  isTest?: boolean;

  @ApiPropertyOptional({ maxLength: 100 })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  gate?: string;

  @ApiPropertyOptional({ maxLength: 100 })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  paymentMethod?: string;

  @ApiPropertyOptional({ example: '203.0.113.7' })
  @IsOptional()
  @IsIP()
  clientIp?: string;

  @ApiPropertyOptional({ example: 'payer@example.com' })
  @IsOptional()
  @IsEmail()
  @MaxLength(320)
  clientEmail?: string;

  @ApiPropertyOptional({ maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  clientName?: string;

  @ApiPropertyOptional({ maxLength: 1000, description: 'Not part of the duplicate check' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  clientUserAgent?: string;

  @ApiPropertyOptional({ example: 'https://shop.example/ok' })
  @IsOptional()
  @IsUrl(URL_OPTIONS)
  @MaxLength(2048)
  successUrl?: string;

  @ApiPropertyOptional({ example: 'https://shop.example/fail' })
  @IsOptional()
  @IsUrl(URL_OPTIONS)
  @MaxLength(2048)
  failureUrl?: string;

  @ApiPropertyOptional({ example: 'https://shop.example/hook' })
  @IsOptional()
  @IsUrl(URL_OPTIONS)
  @MaxLength(2048)
  webhookUrl?: string;

  @ApiPropertyOptional({
    enum: ['get', 'post'],
    description: 'Lower case; `post` when a webhookUrl comes without it',
  })
  @IsOptional()
  @IsIn(['get', 'post'])
  webhookMethod?: 'get' | 'post';

  @ApiPropertyOptional({ maxLength: 16 })
  @IsOptional()
  @IsString()
  @MaxLength(16)
  language?: string;

  @ApiPropertyOptional({
    example: 'shop_bot',
    description: 'Messenger bot username, [A-Za-z0-9_]{3,64}',
  })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_]{3,64}$/, {
    message: 'tgbotId must be 3 to 64 letters, digits or underscores',
  })
  tgbotId?: string;
}
