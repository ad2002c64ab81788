import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { PAYIN_STATUSES, PAYOUT_STATUSES } from '@app/database';

const STATUSES = Array.from(new Set<string>([...PAYIN_STATUSES, ...PAYOUT_STATUSES]));

export class SetTransactionStatusDto {
  @ApiProperty({
    enum: STATUSES,
    description:
      'Payin: processing → success | failed | proof_requested; proof_requested → success | failed. Payout: pending → processing; processing → success | failed. Anything else is 409.',
  })
  @IsIn(STATUSES)
  status: string;
}
