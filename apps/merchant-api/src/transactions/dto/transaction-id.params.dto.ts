import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { UUID_PATTERN } from '../../common/transforms';

/** The `{transactionId}` path parameter of payin and payout operations. */
export class TransactionIdParamsDto {
  @ApiProperty({ format: 'uuid', example: '0b5d7f3e-2c1a-4e8b-9f6d-3a2b1c0d9e8f' })
  @Matches(UUID_PATTERN, { message: 'transactionId must be a UUID' })
  transactionId: string;
}
