import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { PAYIN_STATUSES } from '@app/database';

/** Body of the store-scoped moves: which store the call acts for. */
export class StoreScopeDto {
  @ApiProperty({ example: 1, description: 'The store the call acts for' })
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  storeId: number;
}

export class CreatedTransactionDto {
  @ApiProperty({ format: 'uuid' })
  transactionId: string;

  @ApiProperty({
    description:
      'false when an existing transaction with the same externalId and parameters was answered',
  })
  created: boolean;
}

export class TransactionStatusDto {
  @ApiProperty({ format: 'uuid' })
  transactionId: string;

  @ApiProperty({ enum: PAYIN_STATUSES, description: 'The status after the call' })
  status: string;
}

export class CoreErrorDto {
  @ApiProperty({ example: 'ERROR_TRANSACTION_STATUS_CONFLICT' })
  message: string;

  @ApiProperty({
    required: false,
    description: 'Offending fields for ERROR_INVALID_REQUEST; context for 409s',
  })
  details?: unknown;
}
