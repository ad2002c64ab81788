import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PreparedStatement, queryPrepared } from '@app/database';

/** One record of merchant-api.md 4.8, exactly as answered. */
export interface BalanceChangeItem {
  createdAt: string;
  updatedAt: string;
  storeId: number;
  flow: string;
  amount: number;
  balanceBefore: number;
  balanceAfter: number;
}

export interface BalanceChangesSlice {
  total: number;
  items: BalanceChangeItem[];
}

interface SliceRow {
  total: string;
  store_id: number | null;
  flow: string | null;
  amount: string | null;
  balance_before: string | null;
  balance_after: string | null;
  created_at: string | null;
  updated_at: string | null;
}

/**
 * A timestamptz in the contract's format (`DD.MM.YYYY HH:mm:ss`, UTC, the same as
 * formatTimestamp of transactions), written by PostgreSQL: parsing and formatting two hundred
 * timestamps in JavaScript was a sixth of the CPU of a cached page of 100 (docs/benchmarks.md).
 */
const contractTimestamp = (column: string): string =>
  `to_char(${column} AT TIME ZONE 'UTC', 'DD.MM.YYYY HH24:MI:SS')`;

/**
 * Page p of size l of a merchant's ledger, newest first, without OFFSET and without COUNT(*): the
 * core numbers each merchant's balance changes 1..N without gaps (`seq`) and keeps N in
 * `merchants.balance_change_count`. The page is the seq range
 * [N - p*l + 1, N - (p-1)*l], read from the unique (merchant_id, seq) index, so the last page of
 * a million records costs what the first does. One statement, so N and the rows come from one
 * snapshot; prepared, so PostgreSQL plans it once per connection. Records come out in their
 * answered shape, so a cached page needs no mapping.
 */
const PAGE_STATEMENT: PreparedStatement = {
  name: 'merchant-api.balance-page.v1',
  text: `SELECT m.balance_change_count::text AS total,
                bc.store_id, bc.flow, bc.amount::text AS amount,
                bc.balance_before::text AS balance_before, bc.balance_after::text AS balance_after,
                ${contractTimestamp('bc.created_at')} AS created_at,
                ${contractTimestamp('bc.updated_at')} AS updated_at
           FROM merchants m
           LEFT JOIN balance_changes bc
                  ON bc.merchant_id = m.id
                 AND bc.seq BETWEEN m.balance_change_count - $2::bigint * $3::bigint + 1
                                AND m.balance_change_count - ($2::bigint - 1) * $3::bigint
          WHERE m.id = $1
          ORDER BY bc.seq DESC`,
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
    const rows = await queryPrepared<SliceRow>(this.dataSource, PAGE_STATEMENT, [
      merchantId,
      String(page),
      String(limit),
    ]);
    if (rows.length === 0) return null;
    return {
      total: Number(rows[0].total),
      items: rows
        .filter((row) => row.store_id !== null)
        .map((row) => ({
          createdAt: row.created_at!,
          updatedAt: row.updated_at!,
          storeId: row.store_id!,
          flow: row.flow!,
          // NUMERIC(20,2) text as a JSON number, the contract's type.
          amount: Number(row.amount),
          balanceBefore: Number(row.balance_before),
          balanceAfter: Number(row.balance_after),
        })),
    };
  }
}
