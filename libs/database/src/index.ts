export { ENTITIES } from './entities';
export { MIGRATIONS } from './migrations';
export { createDataSource, dataSourceOptions, runMigrations } from './data-source';
export { Merchant } from './entities/merchant.entity';
export { Store } from './entities/store.entity';
export { Balance } from './entities/balance.entity';
export { BalanceChange, BALANCE_FLOWS, type BalanceFlow } from './entities/balance-change.entity';
export {
  Transaction,
  PAYIN_STATUSES,
  PAYOUT_STATUSES,
  type PayinStatus,
  type PayoutStatus,
  type TransactionStatus,
  type TransactionType,
} from './entities/transaction.entity';
export { TransactionStatusChange } from './entities/transaction-status-change.entity';
export { PaymentDetail } from './entities/payment-detail.entity';
export { AdminAuditLog } from './entities/admin-audit-log.entity';
export { IdempotencyKey } from './entities/idempotency-key.entity';
export { UsedNonce } from './entities/used-nonce.entity';
export {
  WebhookEvent,
  WEBHOOK_EVENT_STATUSES,
  type WebhookEventStatus,
  type WebhookMethod,
} from './entities/webhook-event.entity';
export { WebhookDelivery } from './entities/webhook-delivery.entity';
export { startEmbeddedPostgres, freePort, type EmbeddedPostgresHandle } from './embedded-postgres';
export { DatabaseModule } from './database.module';
export { queryPrepared, queryPreparedIn, type PreparedStatement } from './prepared';
