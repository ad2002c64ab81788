import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { CheckedByGuard } from '../../common/transforms';

/**
 * Query (GET) or body (DELETE, PATCH, proof upload) of an operation on `{transactionId}`:
 * merchant-api.md 5.1 rule 2. The signature covers `transactionId=<path value>` only (plus the
 * opt-in `timestamp` and `nonce`).
 */
export class SignedTransactionRequestDto {
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Same as the path; when sent, it must equal it.',
  })
  @IsOptional()
  @IsString()
  transactionId?: string;

  @ApiProperty({
    example: 'db8cc19bf80e425c7bab28fb98a72ad3facd9354637d4808b8130e24d6585605',
    description: 'HMAC-SHA256 hex of `transactionId=<transactionId>`.',
  })
  @CheckedByGuard()
  signature: string;

  @ApiPropertyOptional({
    example: 1795431000,
    description:
      'Replay protection (optional): Unix seconds, within 300 s of the server time. Signed.',
  })
  @CheckedByGuard()
  timestamp?: number;

  @ApiPropertyOptional({
    example: 'b1946ac92492d2347c6235b4d2611184',
    description:
      'Replay protection (optional): unique per request and store, 1 to 128 characters. Signed.',
  })
  @CheckedByGuard()
  nonce?: string;
}
