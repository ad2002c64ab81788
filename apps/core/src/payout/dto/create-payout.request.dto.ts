import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { IsMoney } from '../../common/money.validation';

export class CreatePayoutRequestDto {
  @ApiProperty({ example: 1 })
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  storeId: number;

  @ApiProperty({ example: '25.00', description: 'Decimal string, > 0, at most 2 decimal places' })
  @IsMoney()
  amount: string;

  @ApiProperty({ example: '42' })
  @Matches(/^\d{1,32}$/, { message: 'clientId must be a string of 1 to 32 digits' })
  clientId: string;

  @ApiProperty({
    example: '4111111111111111',
    description: '13 to 19 digits passing the Luhn check; stored sealed, never returned whole',
  })
  @IsString()
  cardNumber: string;

  @ApiPropertyOptional({ maxLength: 255 })
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
}
