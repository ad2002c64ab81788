import type { Request } from 'express';

/** Which access flag of the merchant an endpoint needs (merchant-api.md 5.3, decisions.md section 2). */
export type AccessScope = 'payin' | 'payout' | 'account';

/** The store a request was authenticated as, set on the request by MerchantAuthGuard. */
export interface AuthenticatedStore {
  storeId: number;
  merchantId: number;
}

export type AuthenticatedRequest = Request & { merchantAuth?: AuthenticatedStore; id?: string };

/** The credentials and flags the guard needs, read in one query by public token. */
export interface StoreCredentials {
  storeId: number;
  merchantId: number;
  privateTokenEnc: string;
  requireReplayProtection: boolean;
  /** Null when the store's merchant record is missing. */
  merchant: { payinEnabled: boolean; payoutEnabled: boolean; accountEnabled: boolean } | null;
}
