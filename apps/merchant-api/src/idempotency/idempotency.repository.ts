import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export interface StoredIdempotencyKey {
  route: string;
  requestHash: string;
  responseStatus: number | null;
  responseBody: unknown;
}

interface StoredRow {
  route: string;
  request_hash: string;
  response_status: number | null;
  response_body: unknown;
}

/** The merchant API's `idempotency_keys` table; every statement is scoped to the store. */
@Injectable()
export class IdempotencyRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Takes the key for this request. The primary key (store_id, key) decides between concurrent
   * duplicates; an expired row, or one abandoned mid-request longer than `abandonedAfterSeconds`,
   * is taken over in the same statement. True when this request owns the key now.
   */
  async claim(
    storeId: number,
    key: string,
    route: string,
    requestHash: string,
    ttlSeconds: number,
    abandonedAfterSeconds: number,
  ): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `INSERT INTO idempotency_keys (store_id, key, route, request_hash, expires_at)
       VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))
       ON CONFLICT (store_id, key) DO UPDATE
          SET route = EXCLUDED.route, request_hash = EXCLUDED.request_hash, response_status = NULL,
              response_body = NULL, created_at = now(), expires_at = EXCLUDED.expires_at
        WHERE idempotency_keys.expires_at < now()
           OR (idempotency_keys.response_status IS NULL AND idempotency_keys.created_at < now() - make_interval(secs => $6))
       RETURNING 1 AS claimed`,
      [storeId, key, route, requestHash, ttlSeconds, abandonedAfterSeconds],
    )) as unknown[];
    return rows.length === 1;
  }

  async find(storeId: number, key: string): Promise<StoredIdempotencyKey | null> {
    const rows = (await this.dataSource.query(
      `SELECT route, request_hash, response_status, response_body FROM idempotency_keys WHERE store_id = $1 AND key = $2`,
      [storeId, key],
    )) as StoredRow[];
    const row = rows[0];
    return row
      ? {
          route: row.route,
          requestHash: row.request_hash,
          responseStatus: row.response_status,
          responseBody: row.response_body,
        }
      : null;
  }

  async complete(storeId: number, key: string, status: number, body: unknown): Promise<void> {
    await this.dataSource.query(
      `UPDATE idempotency_keys SET response_status = $3, response_body = $4 WHERE store_id = $1 AND key = $2`,
      [storeId, key, status, JSON.stringify(body)],
    );
  }

  async release(storeId: number, key: string): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM idempotency_keys WHERE store_id = $1 AND key = $2 AND response_status IS NULL`,
      [storeId, key],
    );
  }
}
