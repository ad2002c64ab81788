import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';
import { IsMoney } from '../../common/money.validation';
import { OptionalNotNull } from '../../common/validation';

export class CreatePaymentDetailDto {
  @ApiPropertyOptional({ example: 'JOHN DOE' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  cardName?: string;

  @ApiPropertyOptional({ example: 'Demo Bank' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  bankName?: string;

  @ApiPropertyOptional({
    example: '4111111111111111',
    description: '12 to 19 digits; stored sealed, shown masked',
  })
  @IsOptional()
  @Matches(/^\d{12,19}$/, { message: 'cardNumber must be 12 to 19 digits' })
  cardNumber?: string;

  @ApiPropertyOptional({ example: '+10000000000' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  phoneNumber?: string;

  @ApiPropertyOptional({ description: 'QR payload (text or URL)' })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  qrCode?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(64)
  accountNumber?: string;

  @ApiPropertyOptional({ example: 'DE89370400440532013000' })
  @IsOptional()
  @IsString()
  @MinLength(5)
  @MaxLength(64)
  ibanNumber?: string;

  @ApiPropertyOptional({ example: '10.00', description: 'Smallest payin amount this detail takes' })
  @IsOptional()
  @IsMoney({ allowZero: true })
  minAmount?: string;

  @ApiPropertyOptional({
    example: '5000.00',
    description: 'Largest payin amount this detail takes',
  })
  @IsOptional()
  @IsMoney({ allowZero: true })
  maxAmount?: string;

  @ApiPropertyOptional({ example: 5, description: 'At most this many pending payins at once' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  maxPending?: number;

  @ApiPropertyOptional({
    description:
      'Reserve the detail for one merchant; that merchant then draws only from its own details',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  merchantId?: number;
}

export class UpdatePaymentDetailDto {
  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ nullable: true, description: 'null removes the bound' })
  @IsOptional()
  @ValidateIf((_dto, value) => value !== null)
  @IsMoney({ allowZero: true })
  minAmount?: string | null;

  @ApiPropertyOptional({ nullable: true, description: 'null removes the bound' })
  @IsOptional()
  @ValidateIf((_dto, value) => value !== null)
  @IsMoney({ allowZero: true })
  maxAmount?: string | null;

  @ApiPropertyOptional({ nullable: true, description: 'null removes the limit' })
  @IsOptional()
  @ValidateIf((_dto, value) => value !== null)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  maxPending?: number | null;
}

export class ListPaymentDetailsQueryDto {
  @ApiPropertyOptional({ description: 'Only the details reserved for this merchant' })
  @IsOptional()
  @Matches(/^[1-9]\d{0,9}$/, { message: 'merchantId must be a positive integer' })
  merchantId?: string;
}
