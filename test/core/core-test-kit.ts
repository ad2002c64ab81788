import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { admin, TestStore } from '../support/factories';
import type { RunningApp } from '../support/system';

/**
 * The core API as the merchant API calls it (bearer CORE_SERVICE_TOKEN), plus the operator's
 * admin calls and a ledger invariant check, for the core's e2e suites.
 */
export function coreKit(core: RunningApp) {
  const token = core.config.secrets.coreServiceToken;
  const ops = admin({ core });
  const db = core.app.get(DataSource);
  const post = (path: string, body: object) =>
    request(core.url).post(`/core/v1${path}`).set('authorization', `Bearer ${token}`).send(body);

  return {
    ops,
    db,
    post,
    createPayin: (storeId: number, fields: Record<string, unknown> = {}) =>
      post('/payins', { storeId, amount: '100.00', clientId: '42', ...fields }),
    createPayout: (storeId: number, fields: Record<string, unknown> = {}) =>
      post('/payouts', {
        storeId,
        amount: '10.00',
        clientId: '42',
        cardNumber: '4111111111111111',
        ...fields,
      }),
    move: (
      resource: 'payins' | 'payouts',
      id: string,
      action: 'cancel' | 'confirm',
      storeId: number,
    ) => post(`/${resource}/${id}/${action}`, { storeId }),
    uploadProof: (
      id: string,
      storeId: number | string,
      file: Buffer,
      filename = 'receipt.png',
      contentType = 'image/png',
    ) =>
      request(core.url)
        .post(`/core/v1/payins/${id}/proof`)
        .set('authorization', `Bearer ${token}`)
        .field('storeId', String(storeId))
        .attach('document', file, { filename, contentType }),

    /** A merchant and store of its own, with receiving details reserved for it, so other suites never drain them. */
    async storeWithDetails(
      details: Record<string, unknown> = {},
    ): Promise<TestStore & { detailId: number }> {
      const store = await ops.createStore({ name: `core ${randomUUID()}` });
      const detailId = await ops.addPaymentDetails({ merchantId: store.merchantId, ...details });
      return { ...store, detailId };
    },

    async balance(storeId: number): Promise<string> {
      const [row] = await db.query(
        'SELECT amount::text AS amount FROM balances WHERE store_id = $1',
        [storeId],
      );
      return row.amount;
    },

    async changes(storeId: number): Promise<
      Array<{
        flow: string;
        amount: string;
        balanceBefore: string;
        balanceAfter: string;
        transactionId: string | null;
      }>
    > {
      return db.query(
        `SELECT flow, amount::text AS amount, balance_before::text AS "balanceBefore", balance_after::text AS "balanceAfter", transaction_id AS "transactionId"
           FROM balance_changes WHERE store_id = $1 ORDER BY id`,
        [storeId],
      );
    },

    async history(
      transactionId: string,
    ): Promise<Array<{ from: string | null; to: string; actor: string }>> {
      return db.query(
        'SELECT from_status AS "from", to_status AS "to", actor FROM transaction_status_changes WHERE transaction_id = $1 ORDER BY id',
        [transactionId],
      );
    },

    /**
     * Fails on any lost or doubled movement of a merchant's stores: each store's chain links
     * (every balanceBefore is the previous balanceAfter, starting at 0), the sum of amounts is the
     * balance, seqs are 1..N without gaps, and the merchant's counter equals N.
     */
    async assertLedgerInvariant(merchantId: number): Promise<void> {
      const stores: Array<{ id: number; amount: string }> = await db.query(
        'SELECT s.id, b.amount::text AS amount FROM stores s JOIN balances b ON b.store_id = s.id WHERE s.merchant_id = $1',
        [merchantId],
      );
      for (const store of stores) {
        const rows: Array<{ amount: string; before: string; after: string }> = await db.query(
          'SELECT amount::text AS amount, balance_before::text AS before, balance_after::text AS after FROM balance_changes WHERE store_id = $1 ORDER BY seq',
          [store.id],
        );
        let running = 0n;
        for (const row of rows) {
          expect(toCents(row.before)).toBe(running);
          expect(toCents(row.after)).toBe(running + toCents(row.amount));
          running = toCents(row.after);
          expect(running >= 0n).toBe(true);
        }
        expect(running).toBe(toCents(store.amount));
      }
      const seqs: Array<{ seq: string }> = await db.query(
        'SELECT seq::text AS seq FROM balance_changes WHERE merchant_id = $1 ORDER BY balance_changes.seq',
        [merchantId],
      );
      expect(seqs.map((row) => Number(row.seq))).toEqual(seqs.map((_row, index) => index + 1));
      const [{ count }] = await db.query(
        'SELECT balance_change_count::int AS count FROM merchants WHERE id = $1',
        [merchantId],
      );
      expect(count).toBe(seqs.length);
    },
  };
}

/** Exact cents of a NUMERIC(20,2) text, as a bigint: no float anywhere in the check. */
export function toCents(value: string): bigint {
  const negative = value.startsWith('-');
  const [whole, fraction = ''] = value.replace('-', '').split('.');
  const cents = BigInt(whole) * 100n + BigInt((fraction + '00').slice(0, 2));
  return negative ? -cents : cents;
}

/** The smallest valid PNG: an 8-byte signature and an IHDR chunk are enough for content sniffing. */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6300010000000500010d0a2db40000000049454e44ae426082',
  'hex',
);
export const GIF = Buffer.from('474946383961010001000000002c00000000010001000002024401003b', 'hex');
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
