import { Initial1795424926228 } from './migrations/1795424926228-Initial';
import { LedgerAppendOnly1795424926300 } from './migrations/1795424926300-LedgerAppendOnly';
import { CorePaymentDetailScopeAndProofs1795430875716 } from './migrations/1795430875716-CorePaymentDetailScopeAndProofs';
import { WebhookOutbox1795431039060 } from './migrations/1795431039060-WebhookOutbox';
import { PaymentDetailRotation1795435126846 } from './migrations/1795435126846-PaymentDetailRotation';

/**
 * Every migration, in order. A new one is generated (docs/database.md), read, and appended here:
 * listed explicitly because globs resolve differently under ts-jest and in dist/.
 */
export const MIGRATIONS = [Initial1795424926228, LedgerAppendOnly1795424926300, CorePaymentDetailScopeAndProofs1795430875716, WebhookOutbox1795431039060, PaymentDetailRotation1795435126846];
