import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { FieldCipher } from '@app/crypto';
import { queryRows } from '../common/sql';

/** A Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes, as its libraries read it. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The keys a notification of one store is signed with. */
export interface StoreSigningKeys {
  /** The store's private token: the `signature` field, merchant-api.md section 5. */
  privateToken: string;
  /** The Standard Webhooks secret: the `webhook-signature` header. */
  webhookSecret: string;
}

/** Stores' signing keys, sealed with FieldCipher at rest and opened only to sign. */
@Injectable()
export class WebhookSecretService {
  constructor(private readonly cipher: FieldCipher) {}

  /**
   * The keys of each store in `storeIds`. A store created before webhook secrets existed gets
   * one here; the conditional update makes instances racing on it agree on a single secret.
   */
  async signingKeys(
    manager: EntityManager,
    storeIds: number[],
  ): Promise<Map<number, StoreSigningKeys>> {
    const keys = new Map<number, StoreSigningKeys>();
    if (storeIds.length === 0) return keys;
    const rows = await queryRows<{
      id: number;
      private_token_enc: string;
      webhook_secret_enc: string | null;
    }>(
      manager,
      `SELECT id, private_token_enc, webhook_secret_enc FROM stores WHERE id = ANY($1::int[])`,
      [storeIds],
    );
    for (const row of rows) {
      const sealedSecret =
        row.webhook_secret_enc ?? (await this.createMissingSecret(manager, row.id));
      keys.set(row.id, {
        privateToken: this.cipher.decrypt(row.private_token_enc),
        webhookSecret: this.cipher.decrypt(sealedSecret),
      });
    }
    return keys;
  }

  /** Replaces the store's secret; notifications sent from the commit on are signed with the new one. */
  async rotate(manager: EntityManager, storeId: number): Promise<string> {
    const secret = newWebhookSecret();
    await manager.query(
      `UPDATE stores SET webhook_secret_enc = $2, updated_at = now() WHERE id = $1`,
      [storeId, this.cipher.encrypt(secret)],
    );
    return secret;
  }

  private async createMissingSecret(manager: EntityManager, storeId: number): Promise<string> {
    await manager.query(
      `UPDATE stores SET webhook_secret_enc = $2 WHERE id = $1 AND webhook_secret_enc IS NULL`,
      [storeId, this.cipher.encrypt(newWebhookSecret())],
    );
    const [row] = await queryRows<{ webhook_secret_enc: string }>(
      manager,
      `SELECT webhook_secret_enc FROM stores WHERE id = $1`,
      [storeId],
    );
    return row.webhook_secret_enc;
  }
}
