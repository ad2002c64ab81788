import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { CheckedByGuard, QueryInteger } from '../../common/transforms';

export const DEFAULT_PAGE = 1;
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** merchant-api.md 4.8; defaults from decisions.md section 3. */
export class BalanceChangesQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    default: DEFAULT_PAGE,
    example: 1,
    description: 'Page number; a page past the end has no items.',
  })
  @QueryInteger()
  @IsOptional()
  @IsInt({ message: 'page must be an integer' })
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  page?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_LIMIT,
    default: DEFAULT_LIMIT,
    example: 20,
  })
  @QueryInteger()
  @IsOptional()
  @IsInt({ message: 'limit must be an integer' })
  @Min(1)
  @Max(MAX_LIMIT)
  limit?: number;

  @ApiProperty({
    description: 'HMAC-SHA256 hex over all other query parameters (see "Signing requests").',
  })
  @CheckedByGuard()
  signature: string;

  @ApiPropertyOptional({ description: 'Replay protection (optional): Unix seconds. Signed.' })
  @CheckedByGuard()
  timestamp?: number;

  @ApiPropertyOptional({ description: 'Replay protection (optional): unique per request. Signed.' })
  @CheckedByGuard()
  nonce?: string;
}
