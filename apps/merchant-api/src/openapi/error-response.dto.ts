import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Every error of the merchant API (merchant-api.md section 7, decisions.md section 2). */
export class ErrorResponseDto {
  @ApiProperty({
    example: 'ERROR_INVALID_REQUEST',
    description: 'An error code; see the list under each response.',
  })
  message: string;

  @ApiPropertyOptional({
    description:
      'Validation errors (`[{ field, errors }]`), or the core body a core failure passed on.',
    oneOf: [{ type: 'array', items: { type: 'object' } }, { type: 'object' }],
    example: [{ field: 'amount', errors: ['amount must be a positive number'] }],
  })
  details?: unknown;
}
