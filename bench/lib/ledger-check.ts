import { withConnection } from './database';

/**
 * The ledger invariants (decisions.md section 4), checked in SQL after load:
 * - chain: each change of a store starts where the previous one of that store ended, the first at 0;
 * - arithmetic: `balance_after = balance_before + amount`, never negative;
 * - sequence: per merchant, `seq` runs 1..n without gaps and n is the merchant's counter;
 * - sum: each store's balance equals the sum of its changes and its last `balance_after`;
 * - payouts: every payout transaction has exactly one debit of its amount (flow `payout`).
 * Each count is of violations; all zero means the ledger is whole.
 */
export interface LedgerCheck {
  rows: number;
  chainBreaks: number;
  arithmetic: number;
  negative: number;
  sequenceGaps: number;
  counterMismatches: number;
  balanceMismatches: number;
  payoutDebitMismatches: number;
  violations: number;
}

export async function checkLedger(databaseUrl: string, merchantId?: number): Promise<LedgerCheck> {
  const scope = merchantId === undefined ? '' : 'WHERE merchant_id = $1';
  const params = merchantId === undefined ? [] : [merchantId];
  return withConnection(databaseUrl, async (db) => {
    const [changes] = (await db.query(
      `WITH ordered AS (
         SELECT merchant_id, store_id, seq, amount, balance_before, balance_after,
                lag(balance_after) OVER (PARTITION BY store_id ORDER BY seq) AS previous_after,
                row_number() OVER (PARTITION BY merchant_id ORDER BY seq) AS position
           FROM balance_changes ${scope})
       SELECT count(*)::int AS rows,
              count(*) FILTER (WHERE balance_before <> coalesce(previous_after, 0))::int AS chain_breaks,
              count(*) FILTER (WHERE balance_after <> balance_before + amount)::int AS arithmetic,
              count(*) FILTER (WHERE balance_after < 0 OR balance_before < 0)::int AS negative,
              count(*) FILTER (WHERE seq <> position)::int AS sequence_gaps
         FROM ordered`,
      params,
    )) as Array<{
      rows: number;
      chain_breaks: number;
      arithmetic: number;
      negative: number;
      sequence_gaps: number;
    }>;

    const [counters] = (await db.query(
      `SELECT count(*)::int AS mismatches FROM merchants m
        WHERE ${merchantId === undefined ? 'TRUE' : 'm.id = $1'}
          AND m.balance_change_count <> (SELECT count(*) FROM balance_changes c WHERE c.merchant_id = m.id)`,
      params,
    )) as Array<{ mismatches: number }>;

    const [balances] = (await db.query(
      `SELECT count(*)::int AS mismatches FROM balances b
         LEFT JOIN LATERAL (SELECT coalesce(sum(amount), 0) AS total FROM balance_changes c WHERE c.store_id = b.store_id) s ON TRUE
         LEFT JOIN LATERAL (SELECT balance_after FROM balance_changes c WHERE c.store_id = b.store_id ORDER BY seq DESC LIMIT 1) l ON TRUE
        WHERE ${merchantId === undefined ? 'TRUE' : 'b.merchant_id = $1'}
          AND (b.amount <> s.total OR b.amount <> coalesce(l.balance_after, 0))`,
      params,
    )) as Array<{ mismatches: number }>;

    const [payouts] = (await db.query(
      `SELECT count(*)::int AS mismatches FROM transactions t
        WHERE t.type = 'payout' ${merchantId === undefined ? '' : 'AND t.merchant_id = $1'}
          AND (SELECT count(*) FROM balance_changes c WHERE c.transaction_id = t.id AND c.flow = 'payout' AND c.amount = -t.amount) <> 1`,
      params,
    )) as Array<{ mismatches: number }>;

    const check = {
      rows: changes.rows,
      chainBreaks: changes.chain_breaks,
      arithmetic: changes.arithmetic,
      negative: changes.negative,
      sequenceGaps: changes.sequence_gaps,
      counterMismatches: counters.mismatches,
      balanceMismatches: balances.mismatches,
      payoutDebitMismatches: payouts.mismatches,
    };
    const violations = Object.entries(check)
      .filter(([key]) => key !== 'rows')
      .reduce((sum, [, value]) => sum + value, 0);
    return { ...check, violations };
  });
}
