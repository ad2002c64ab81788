import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { StoreCredentials } from './auth.types';

interface CredentialsRow {
  store_id: number;
  merchant_id: number;
  private_token_enc: string;
  require_replay_protection: boolean;
  merchant_found: boolean;
  payin_enabled: boolean | null;
  payout_enabled: boolean | null;
  account_enabled: boolean | null;
}

/**
 * Resolves a public token to its store, the sealed private token and the merchant's access
 * flags, in one indexed query. The guard reads it through StoreCredentialsCache, which the
 * core's store and merchant announcements keep current.
 */
@Injectable()
export class StoreCredentialsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async findByPublicToken(publicToken: string): Promise<StoreCredentials | null> {
    const rows = (await this.dataSource.query(
      `SELECT s.id AS store_id, s.merchant_id, s.private_token_enc, s.require_replay_protection,
              m.id IS NOT NULL AS merchant_found, m.payin_enabled, m.payout_enabled, m.account_enabled
         FROM stores s
         LEFT JOIN merchants m ON m.id = s.merchant_id
        WHERE s.public_token = $1`,
      [publicToken],
    )) as CredentialsRow[];
    const row = rows[0];
    if (!row) return null;
    return {
      storeId: row.store_id,
      merchantId: row.merchant_id,
      privateTokenEnc: row.private_token_enc,
      requireReplayProtection: row.require_replay_protection,
      merchant: row.merchant_found
        ? {
            payinEnabled: row.payin_enabled === true,
            payoutEnabled: row.payout_enabled === true,
            accountEnabled: row.account_enabled === true,
          }
        : null,
    };
  }
}
