import {
  ArgumentMetadata,
  Body,
  Controller,
  Get,
  HttpCode,
  HttpStatus,
  Injectable,
  Param,
  Patch,
  PipeTransform,
  Post,
  UseGuards,
} from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AppException, ErrorCode } from '@app/errors';
import { AdminActor, AdminAuthGuard } from '../admin/admin-auth.guard';
import { SerialIdPipe } from '../common/params';
import {
  StoreWebhookView,
  UpdateStoreWebhookDto,
  WebhookSecretView,
} from './dto/store-webhook.dto';
import { WebhookEventView } from './webhook-views';
import { WebhooksAdminService } from './webhooks-admin.service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An event id in the path: anything but a UUID cannot exist, so it is a 404 without a query. */
@Injectable()
class WebhookEventIdPipe implements PipeTransform<string, string> {
  transform(value: string, _metadata: ArgumentMetadata): string {
    if (!UUID.test(value))
      throw new AppException(ErrorCode.WEBHOOK_EVENT_NOT_FOUND, HttpStatus.NOT_FOUND);
    return value.toLowerCase();
  }
}

@ApiTags('admin')
@ApiBearerAuth('admin')
@UseGuards(AdminAuthGuard)
@Controller('admin/v1')
export class WebhooksAdminController {
  constructor(private readonly webhooks: WebhooksAdminService) {}

  @Get('stores/:id/webhook')
  @ApiOperation({ summary: "The store's default webhook URL and method" })
  getStoreWebhook(@Param('id', SerialIdPipe) id: number): Promise<StoreWebhookView> {
    return this.webhooks.getStoreWebhook(id);
  }

  @Patch('stores/:id/webhook')
  @ApiOperation({
    summary:
      'Sets the default webhook URL and method, used for payouts and for payins created without webhookUrl',
  })
  updateStoreWebhook(
    @Param('id', SerialIdPipe) id: number,
    @Body() body: UpdateStoreWebhookDto,
    @AdminActor() actor: string,
  ): Promise<StoreWebhookView> {
    return this.webhooks.updateStoreWebhook(id, body, actor);
  }

  @Post('stores/:id/webhook-secret/rotate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'New Standard Webhooks secret (returned); the old one stops signing at once',
  })
  rotateSecret(
    @Param('id', SerialIdPipe) id: number,
    @AdminActor() actor: string,
  ): Promise<WebhookSecretView> {
    return this.webhooks.rotateSecret(id, actor);
  }

  @Get('webhooks/:eventId')
  @ApiOperation({ summary: 'A notification with its delivery log' })
  getEvent(@Param('eventId', WebhookEventIdPipe) eventId: string): Promise<WebhookEventView> {
    return this.webhooks.getEvent(eventId);
  }

  @Post('webhooks/:eventId/resend')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Sends a notification again, same eventId, on a fresh retry schedule; 404 ERROR_WEBHOOK_EVENT_NOT_FOUND',
  })
  resend(
    @Param('eventId', WebhookEventIdPipe) eventId: string,
    @AdminActor() actor: string,
  ): Promise<WebhookEventView> {
    return this.webhooks.resend(eventId, actor);
  }
}
