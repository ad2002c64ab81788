import { Module } from '@nestjs/common';
import { AdminCoreModule } from '../admin/admin-core.module';
import { FieldCipherModule } from '../common/field-cipher.module';
import { WebhookDispatcherService } from './webhook-dispatcher.service';
import { WebhookEventRepository } from './webhook-event.repository';
import { WebhookOutboxService } from './webhook-outbox.service';
import { WebhookSecretService } from './webhook-secret.service';
import { WebhooksAdminController } from './webhooks-admin.controller';
import { WebhooksAdminService } from './webhooks-admin.service';

/**
 * Merchant notifications (decisions.md section 5): the outbox that status changes write to,
 * the dispatcher that delivers it, and the operators' endpoints. Other modules use
 * WebhookOutboxService (inside their transactions) and WebhooksAdminService (delivery logs).
 */
@Module({
  imports: [AdminCoreModule, FieldCipherModule],
  controllers: [WebhooksAdminController],
  providers: [
    WebhookEventRepository,
    WebhookOutboxService,
    WebhookSecretService,
    WebhookDispatcherService,
    WebhooksAdminService,
  ],
  exports: [WebhookOutboxService, WebhooksAdminService, WebhookDispatcherService],
})
export class WebhooksModule {}
