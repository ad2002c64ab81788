import { Body, Controller, Get, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { SerialIdPipe } from '../common/params';
import {
  PaymentDetailsService,
  PaymentDetailView,
} from '../payment-details/payment-details.service';
import { AdminActor, AdminAuthGuard } from './admin-auth.guard';
import {
  CreatePaymentDetailDto,
  ListPaymentDetailsQueryDto,
  UpdatePaymentDetailDto,
} from './dto/payment-detail.dto';

@ApiTags('admin')
@ApiBearerAuth('admin')
@UseGuards(AdminAuthGuard)
@Controller('admin/v1/payment-details')
export class AdminPaymentDetailsController {
  constructor(private readonly details: PaymentDetailsService) {}

  @Post()
  @ApiOperation({ summary: 'Add receiving details to the pool payins draw from' })
  add(
    @Body() body: CreatePaymentDetailDto,
    @AdminActor() actor: string,
  ): Promise<PaymentDetailView> {
    return this.details.add(body, actor);
  }

  @Get()
  @ApiOperation({
    summary: 'The pool, card numbers masked, with each detail’s current pending count',
  })
  list(@Query() query: ListPaymentDetailsQueryDto): Promise<PaymentDetailView[]> {
    return this.details.list({
      merchantId: query.merchantId === undefined ? undefined : Number(query.merchantId),
    });
  }

  @Get(':id')
  @ApiOperation({ summary: 'One detail' })
  get(@Param('id', SerialIdPipe) id: number): Promise<PaymentDetailView> {
    return this.details.get(id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Enable or disable a detail, change its limits' })
  update(
    @Param('id', SerialIdPipe) id: number,
    @Body() body: UpdatePaymentDetailDto,
    @AdminActor() actor: string,
  ): Promise<PaymentDetailView> {
    return this.details.update(id, body, actor);
  }
}
