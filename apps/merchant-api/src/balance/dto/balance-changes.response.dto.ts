import { ApiProperty } from '@nestjs/swagger';

export class BalanceChangeDto {
  @ApiProperty({ example: '23.11.2026 12:00:00', description: 'UTC, `dd.mm.yyyy HH:mm:ss`.' })
  createdAt: string;

  @ApiProperty({ example: '23.11.2026 12:00:00', description: 'UTC, `dd.mm.yyyy HH:mm:ss`.' })
  updatedAt: string;

  @ApiProperty({ example: 12 })
  storeId: number;

  @ApiProperty({
    enum: ['payin', 'payin_fee', 'payout', 'payout_refund', 'adjustment'],
    example: 'payin',
    description:
      'payin: a payin reached success; payin_fee: its fee; payout: a payout debit; payout_refund: a canceled or failed payout credited back; adjustment: an operator correction.',
  })
  flow: string;

  @ApiProperty({ example: 100.5, description: 'Signed: a credit is positive, a debit negative.' })
  amount: number;

  @ApiProperty({ example: 0 })
  balanceBefore: number;

  @ApiProperty({ example: 100.5, description: '`balanceBefore + amount`.' })
  balanceAfter: number;
}

export class BalanceChangesPageDto {
  @ApiProperty({
    type: [BalanceChangeDto],
    description: 'Newest first, all stores of the merchant.',
  })
  items: BalanceChangeDto[];

  @ApiProperty({ type: 'integer', example: 1 })
  total: number;

  @ApiProperty({ type: 'integer', example: 1 })
  page: number;

  @ApiProperty({ type: 'integer', example: 20 })
  limit: number;

  @ApiProperty({ type: 'integer', example: 1 })
  totalPages: number;
}

export class BalanceChangesResponseDto {
  @ApiProperty({ example: 'SUCCESS', enum: ['SUCCESS'] })
  message: 'SUCCESS';

  @ApiProperty({ type: BalanceChangesPageDto })
  data: BalanceChangesPageDto;
}
