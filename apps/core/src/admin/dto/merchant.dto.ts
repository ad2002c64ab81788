import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { OptionalNotNull } from '../../common/validation';

export class CreateMerchantDto {
  @ApiProperty({ example: 'Acme Ltd', maxLength: 200 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name: string;
}

export class UpdateMerchantFlagsDto {
  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  payinEnabled?: boolean;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  payoutEnabled?: boolean;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  accountEnabled?: boolean;
}
