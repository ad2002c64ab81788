import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PreparedStatement, queryPrepared } from '@app/database';

/**
 * A page of a merchant's ledger. `items` is the JSON text of the page's records, exactly as
 * answered (merchant-api.md 4.8), written by PostgreSQL.
 */
export interface BalanceChangesSlice {
  total: number;
  items: string;
}

/**
 * A timestamptz in the contract's format (`DD.MM.YYYY HH:mm:ss`, UTC), as a JSON string: the
 * format formatTimestamp (transaction-payload.mapper) writes for transactions.
 */
const contractTimestamp = (column: string): string =>
  `'"' || to_char(${column} AT TIME ZONE 'UTC', 'DD.MM.YYYY HH24:MI:SS') || '"'`;

/**
 * A NUMERIC(20,2) column as a JSON number, the contract's type. float8's text is the shortest
 * one that reads back as the same double, which is what JavaScript's JSON.stringify writes for
 * Number(value): 100.5, -40, 0.
 */
const contractNumber = (column: string): string => `(${column})::float8::text`;

/**
 * One record as JSON text, its fields in the contract's order. Built by concatenation rather
 * than json_build_object, whose text has a space around every colon; `flow` goes through
 * to_json for its quoting.
 */
const RECORD_JSON = `'{"createdAt":' || ${contractTimestamp('bc.created_at')}
     || ',"updatedAt":' || ${contractTimestamp('bc.updated_at')}
     || ',"storeId":' || bc.store_id
     || ',"flow":' || to_json(bc.flow)::text
     || ',"amount":' || ${contractNumber('bc.amount')}
     || ',"balanceBefore":' || ${contractNumber('bc.balance_before')}
     || ',"balanceAfter":' || ${contractNumber('bc.balance_after')} || '}'`;

/**
 * Page p of size l of a merchant's ledger, newest first, without OFFSET and without COUNT(*): the
 * core numbers each merchant's balance changes 1..N without gaps (`seq`) and keeps N in
 * `merchants.balance_change_count`. The page is the seq range
 * [N - p*l + 1, N - (p-1)*l], read from the unique (merchant_id, seq) index, so the last page of
 * a million records costs what the first does. One statement, so N and the rows come from one
 * snapshot; prepared, so PostgreSQL plans it once per connection.
 *
 * PostgreSQL writes the page's records as one JSON text: `pg` then parses one value instead of a
 * hundred rows of seven, and nothing maps or serializes them again (docs/benchmarks.md).
 */
const PAGE_STATEMENT: PreparedStatement = {
  name: 'merchant-api.balance-page.v2',
  text: `SELECT m.balance_change_count::text AS total,
                '[' || COALESCE(
                  (SELECT string_agg(${RECORD_JSON}, ',' ORDER BY bc.seq DESC)
                     FROM balance_changes bc
                    WHERE bc.merchant_id = m.id
                      AND bc.seq BETWEEN m.balance_change_count - $2::bigint * $3::bigint + 1
                                     AND m.balance_change_count - ($2::bigint - 1) * $3::bigint),
                  '') || ']' AS items
           FROM merchants m
          WHERE m.id = $1`,
};

/** A merchant's balance changes, a page at a time (merchant-api.md 4.8). */
@Injectable()
export class BalanceRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Null when the merchant does not exist. */
  async findPageForMerchant(
    merchantId: number,
    page: number,
    limit: number,
  ): Promise<BalanceChangesSlice | null> {
    const [row] = await queryPrepared<{ total: string; items: string }>(
      this.dataSource,
      PAGE_STATEMENT,
      [merchantId, String(page), String(limit)],
    );
    return row ? { total: Number(row.total), items: row.items } : null;
  }
}
