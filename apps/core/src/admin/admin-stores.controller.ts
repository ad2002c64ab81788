import { Body, Controller, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { SerialIdPipe } from '../common/params';
import { BalanceChangeView, StoresService, StoreView } from '../stores/stores.service';
import { AdminActor, AdminAuthGuard } from './admin-auth.guard';
import { CreateAdjustmentDto, UpdateStoreSettingsDto } from './dto/store.dto';

@ApiTags('admin')
@ApiBearerAuth('admin')
@UseGuards(AdminAuthGuard)
@Controller('admin/v1/stores')
export class AdminStoresController {
  constructor(private readonly stores: StoresService) {}

  @Get(':id')
  @ApiOperation({ summary: 'A store with its tokens, settings and balance' })
  get(@Param('id', SerialIdPipe) id: number): Promise<StoreView> {
    return this.stores.get(id);
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Store settings: currency, exchange rate, payin fee, payin TTL, replay protection',
  })
  update(
    @Param('id', SerialIdPipe) id: number,
    @Body() body: UpdateStoreSettingsDto,
    @AdminActor() actor: string,
  ): Promise<StoreView> {
    return this.stores.updateSettings(id, body, actor);
  }

  @Post(':id/rotate-tokens')
  @HttpCode(200)
  @ApiOperation({ summary: 'New public and private tokens; the old ones stop working at once' })
  rotate(@Param('id', SerialIdPipe) id: number, @AdminActor() actor: string): Promise<StoreView> {
    return this.stores.rotateTokens(id, actor);
  }

  @Post(':id/adjustments')
  @ApiOperation({
    summary:
      'Signed balance adjustment (flow `adjustment`); 409 ERROR_INSUFFICIENT_BALANCE below zero',
  })
  adjust(
    @Param('id', SerialIdPipe) id: number,
    @Body() body: CreateAdjustmentDto,
    @AdminActor() actor: string,
  ): Promise<BalanceChangeView> {
    return this.stores.adjust(id, body, actor);
  }
}
