import { Body, Controller, Get, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { SerialIdPipe } from '../common/params';
import { MerchantsService, MerchantView } from '../merchants/merchants.service';
import { StoresService, StoreView } from '../stores/stores.service';
import { AdminActor, AdminAuthGuard } from './admin-auth.guard';
import { CreateMerchantDto, UpdateMerchantFlagsDto } from './dto/merchant.dto';
import { CreateStoreDto } from './dto/store.dto';

@ApiTags('admin')
@ApiBearerAuth('admin')
@UseGuards(AdminAuthGuard)
@Controller('admin/v1/merchants')
export class AdminMerchantsController {
  constructor(
    private readonly merchants: MerchantsService,
    private readonly stores: StoresService,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create a merchant, all access enabled' })
  create(@Body() body: CreateMerchantDto, @AdminActor() actor: string): Promise<MerchantView> {
    return this.merchants.create(body.name, actor);
  }

  @Get(':id')
  @ApiOperation({ summary: 'A merchant with its flags and stores' })
  get(@Param('id', SerialIdPipe) id: number): Promise<MerchantView> {
    return this.merchants.get(id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Set access flags (payin, payout, account)' })
  setFlags(
    @Param('id', SerialIdPipe) id: number,
    @Body() body: UpdateMerchantFlagsDto,
    @AdminActor() actor: string,
  ): Promise<MerchantView> {
    return this.merchants.setFlags(id, body, actor);
  }

  @Post(':id/stores')
  @ApiOperation({
    summary: 'Create a store: public and private tokens, Standard Webhooks secret, zero balance',
  })
  createStore(
    @Param('id', SerialIdPipe) merchantId: number,
    @Body() body: CreateStoreDto,
    @AdminActor() actor: string,
  ): Promise<StoreView> {
    return this.stores.create(merchantId, body, actor);
  }
}
