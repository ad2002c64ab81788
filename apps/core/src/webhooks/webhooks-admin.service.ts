import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { AppConfig, APP_CONFIG } from '@app/config';
import type { WebhookMethod } from '@app/database';
import { AppException, ErrorCode } from '@app/errors';
import { AdminAuditService } from '../admin/admin-audit.service';
import { queryRows } from '../common/sql';
import {
  StoreWebhookView,
  UpdateStoreWebhookDto,
  WebhookSecretView,
} from './dto/store-webhook.dto';
import { assertLiteralHostAllowed, BlockedAddressError } from './ssrf-guard';
import { WebhookEventRepository } from './webhook-event.repository';
import { WEBHOOK_PENDING_CHANNEL, WebhookOutboxService } from './webhook-outbox.service';
import { WebhookSecretService } from './webhook-secret.service';
import { WebhookEventView, webhookEventView } from './webhook-views';

interface StoreWebhookRow {
  id: number;
  webhook_url: string | null;
  webhook_method: WebhookMethod | null;
}

/** The operators' side of webhooks: store defaults, the signing secret, the log, resends. */
@Injectable()
export class WebhooksAdminService {
  constructor(
    @InjectEntityManager() private readonly manager: EntityManager,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly events: WebhookEventRepository,
    private readonly outbox: WebhookOutboxService,
    private readonly secrets: WebhookSecretService,
    private readonly audit: AdminAuditService,
  ) {}

  async getStoreWebhook(storeId: number): Promise<StoreWebhookView> {
    return storeWebhookView(await this.findStore(this.manager, storeId, false));
  }

  /** Sets (or with a null url removes) the store's default notification target. */
  async updateStoreWebhook(
    storeId: number,
    input: UpdateStoreWebhookDto,
    actor: string,
  ): Promise<StoreWebhookView> {
    if (input.url !== null) this.refuseBlockedLiteral(input.url);
    return this.manager.transaction(async (manager) => {
      const before = await this.findStore(manager, storeId, true);
      const url = input.url;
      const method: WebhookMethod | null =
        url === null ? null : (input.method ?? before.webhook_method ?? 'post');
      await manager.query(
        `UPDATE stores SET webhook_url = $2, webhook_method = $3, updated_at = now() WHERE id = $1`,
        [storeId, url, method],
      );
      await this.audit.record(manager, {
        actor,
        action: 'store.webhook',
        targetType: 'store',
        targetId: String(storeId),
        details: {
          before: { url: before.webhook_url, method: before.webhook_method },
          after: { url, method },
        },
      });
      return { storeId, url, method };
    });
  }

  /** A new Standard Webhooks secret; the old one stops signing when this commits. */
  async rotateSecret(storeId: number, actor: string): Promise<WebhookSecretView> {
    return this.manager.transaction(async (manager) => {
      await this.findStore(manager, storeId, true);
      const webhookSecret = await this.secrets.rotate(manager, storeId);
      await this.audit.record(manager, {
        actor,
        action: 'store.rotate-webhook-secret',
        targetType: 'store',
        targetId: String(storeId),
      });
      return { storeId, webhookSecret };
    });
  }

  async getEvent(eventId: string): Promise<WebhookEventView> {
    const event = await this.events.findById(this.manager, eventId);
    if (!event) throw new AppException(ErrorCode.WEBHOOK_EVENT_NOT_FOUND, HttpStatus.NOT_FOUND);
    return webhookEventView(event, await this.events.deliveriesOf(this.manager, [event.id]));
  }

  /**
   * Sends the notification again with the same eventId (so a merchant that already has it drops
   * it), on a fresh retry schedule starting now. It goes to where the transaction's notifications
   * go today: a store default fixed since the event was written is used.
   */
  async resend(eventId: string, actor: string): Promise<WebhookEventView> {
    await this.manager.transaction(async (manager) => {
      const event = await this.events.findById(manager, eventId);
      if (!event) throw new AppException(ErrorCode.WEBHOOK_EVENT_NOT_FOUND, HttpStatus.NOT_FOUND);
      const [transaction] = await queryRows<{
        webhook_url: string | null;
        webhook_method: WebhookMethod | null;
      }>(
        manager,
        `SELECT webhook_url, webhook_method FROM transactions WHERE id = $1 AND store_id = $2`,
        [event.transactionId, event.storeId],
      );
      const target = (await this.outbox.targetOf(manager, {
        storeId: event.storeId,
        merchantId: event.merchantId,
        webhookUrl: transaction?.webhook_url ?? null,
        webhookMethod: transaction?.webhook_method ?? null,
      })) ?? { url: event.url, method: event.method };
      await this.events.resetForResend(manager, eventId, target);
      await this.audit.record(manager, {
        actor,
        action: 'webhook.resend',
        targetType: 'webhook_event',
        targetId: eventId,
        details: {
          transactionId: event.transactionId,
          previousStatus: event.status,
          url: target.url,
          method: target.method,
        },
      });
      await manager.query(`SELECT pg_notify($1, '')`, [WEBHOOK_PENDING_CHANNEL]);
    });
    return this.getEvent(eventId);
  }

  /** A transaction's notifications with their delivery logs, oldest first: the admin transaction view. */
  async deliveriesForTransaction(
    transactionId: string,
    manager: EntityManager = this.manager,
  ): Promise<WebhookEventView[]> {
    const events = await this.events.findForTransaction(manager, transactionId);
    const deliveries = await this.events.deliveriesOf(
      manager,
      events.map((event) => event.id),
    );
    return events.map((event) => webhookEventView(event, deliveries));
  }

  private async findStore(
    manager: EntityManager,
    storeId: number,
    lock: boolean,
  ): Promise<StoreWebhookRow> {
    const [store] = await queryRows<StoreWebhookRow>(
      manager,
      `SELECT id, webhook_url, webhook_method FROM stores WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
      [storeId],
    );
    if (!store) throw new AppException(ErrorCode.STORE_NOT_FOUND, HttpStatus.NOT_FOUND);
    return store;
  }

  /** Early feedback for an operator; the connect-time guard is what actually enforces it. */
  private refuseBlockedLiteral(url: string): void {
    if (this.config.core.webhookAllowPrivate) return;
    try {
      assertLiteralHostAllowed(new URL(url));
    } catch (error) {
      if (!(error instanceof BlockedAddressError)) throw error;
      throw new AppException(ErrorCode.INVALID_REQUEST, HttpStatus.BAD_REQUEST, [
        { field: 'url', errors: [error.message] },
      ]);
    }
  }
}

function storeWebhookView(row: StoreWebhookRow): StoreWebhookView {
  return { storeId: row.id, url: row.webhook_url, method: row.webhook_method };
}
