import { Controller, Get, Header, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { AuthenticatedStore, CurrentStore, MerchantAuth } from '@app/auth';
import {
  ACCESS_ERRORS,
  ApiErrors,
  AUTH_ERRORS,
  INTERNAL_ERROR,
  INVALID_REQUEST,
} from '../openapi/api-errors.decorator';
import { balancePageBody, BalanceService } from './balance.service';
import { BalanceChangesQueryDto } from './dto/balance-changes.query.dto';
import { BalanceChangesResponseDto } from './dto/balance-changes.response.dto';

@ApiTags('balance')
@ApiSecurity('publicToken')
@MerchantAuth('account')
@Controller('api/v1/merchant/balance')
export class BalanceController {
  constructor(private readonly balance: BalanceService) {}

  @Get('changes')
  // The body is written as JSON text (balancePageBody), so Express is told its type.
  @Header('Content-Type', 'application/json; charset=utf-8')
  @ApiOperation({
    operationId: 'listBalanceChanges',
    summary: "List the merchant's balance changes",
    description:
      'Balance changes of all stores of the merchant, newest first, paginated. Signed over all query parameters as sent (e.g. `limit=20&page=1`), except `signature`.',
  })
  @ApiOkResponse({ type: BalanceChangesResponseDto })
  @ApiErrors([
    ...AUTH_ERRORS,
    ACCESS_ERRORS.account,
    {
      ...INVALID_REQUEST,
      when: '`page` is not an integer >= 1, or `limit` not an integer from 1 to 100.',
      details: [{ field: 'limit', errors: ['limit must not be greater than 100'] }],
    },
    INTERNAL_ERROR,
  ])
  async list(
    @CurrentStore() store: AuthenticatedStore,
    @Query() query: BalanceChangesQueryDto,
  ): Promise<string> {
    return balancePageBody(await this.balance.list(store, query));
  }
}
