import { AdminAuditLog } from './entities/admin-audit-log.entity';
import { Balance } from './entities/balance.entity';
import { BalanceChange } from './entities/balance-change.entity';
import { IdempotencyKey } from './entities/idempotency-key.entity';
import { Merchant } from './entities/merchant.entity';
import { PaymentDetail } from './entities/payment-detail.entity';
import { Store } from './entities/store.entity';
import { Transaction } from './entities/transaction.entity';
import { TransactionStatusChange } from './entities/transaction-status-change.entity';
import { UsedNonce } from './entities/used-nonce.entity';
import { WebhookDelivery } from './entities/webhook-delivery.entity';
import { WebhookEvent } from './entities/webhook-event.entity';

/** Every entity, listed explicitly: globs behave differently under ts-jest and in dist/. */
export const ENTITIES = [
  Merchant,
  Store,
  Balance,
  BalanceChange,
  Transaction,
  TransactionStatusChange,
  PaymentDetail,
  AdminAuditLog,
  IdempotencyKey,
  UsedNonce,
  WebhookEvent,
  WebhookDelivery,
];
