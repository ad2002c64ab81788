import { SigningClient } from '../support/signing-client';
import { startSystem, TestSystem } from '../support/system';
import { merchantKit } from './merchant-kit';

const TIMESTAMP = /^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}$/;

/** merchant-api.md 4.8 and 2.3, decisions.md section 3 (defaults, newest first, all stores). */
describe('balance changes list', () => {
  let system: TestSystem;
  let kit: ReturnType<typeof merchantKit>;

  beforeAll(async () => {
    system = await startSystem();
    kit = merchantKit(system);
  });
  afterAll(() => system.close());

  const list = (client: SigningClient, query: Record<string, number> = {}) =>
    client.get('/api/v1/merchant/balance/changes', query).expect(200);

  it('answers SUCCESS with a page object of typed records, newest first', async () => {
    const { store, client } = await kit.merchant();
    await kit.ops.fund(store.storeId, 100.5);
    await kit.ops.fund(store.storeId, -0.5);
    const res = await list(client);
    expect(res.body.message).toBe('SUCCESS');
    expect(res.body.data).toEqual({
      items: [
        {
          createdAt: expect.stringMatching(TIMESTAMP),
          updatedAt: expect.stringMatching(TIMESTAMP),
          storeId: store.storeId,
          flow: 'adjustment',
          amount: -0.5,
          balanceBefore: 100.5,
          balanceAfter: 100,
        },
        {
          createdAt: expect.stringMatching(TIMESTAMP),
          updatedAt: expect.stringMatching(TIMESTAMP),
          storeId: store.storeId,
          flow: 'adjustment',
          amount: 100.5,
          balanceBefore: 0,
          balanceAfter: 100.5,
        },
      ],
      total: 2,
      page: 1,
      limit: 20,
      totalPages: 1,
    });
    // PostgreSQL writes the records' JSON: compact, in the contract's field order, amounts as
    // the numbers JavaScript would write, and answered as JSON.
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.text).toBe(JSON.stringify(res.body));
    expect(res.text).toContain(`"storeId":${store.storeId},"flow":"adjustment","amount":-0.5,`);
    // The stored moments, in UTC, to the second.
    const stored = (await kit
      .db()
      .query(
        'SELECT created_at, updated_at FROM balance_changes WHERE merchant_id = $1 ORDER BY seq DESC',
        [store.merchantId],
      )) as Array<{ created_at: Date; updated_at: Date }>;
    const utc = (date: Date): string => {
      const [day, time] = date.toISOString().split('T');
      const [year, month, dd] = day.split('-');
      return `${dd}.${month}.${year} ${time.slice(0, 8)}`;
    };
    expect(
      res.body.data.items.map((item: { createdAt: string; updatedAt: string }) => [
        item.createdAt,
        item.updatedAt,
      ]),
    ).toEqual(stored.map((row) => [utc(row.created_at), utc(row.updated_at)]));
  });

  it('lists an empty ledger as an empty page', async () => {
    const { client } = await kit.merchant();
    expect((await list(client)).body.data).toEqual({
      items: [],
      total: 0,
      page: 1,
      limit: 20,
      totalPages: 0,
    });
  });

  it('pages by 20 by default; a page past the end is empty; pages do not overlap', async () => {
    const { store, client } = await kit.merchant();
    for (let i = 1; i <= 25; i++) await kit.ops.fund(store.storeId, i);
    const first = (await list(client)).body.data;
    const second = (await list(client, { page: 2 })).body.data;
    const third = (await list(client, { page: 3 })).body.data;
    expect([first.items.length, second.items.length, third.items.length]).toEqual([20, 5, 0]);
    expect([first.total, first.totalPages, third.total, third.page]).toEqual([25, 2, 25, 3]);
    const amounts = [...first.items, ...second.items].map(
      (item: { amount: number }) => item.amount,
    );
    expect(amounts).toEqual(Array.from({ length: 25 }, (_, i) => 25 - i));
    const byTen = (await list(client, { page: 3, limit: 10 })).body.data;
    expect(byTen).toMatchObject({ total: 25, page: 3, limit: 10, totalPages: 3 });
    expect(byTen.items.map((item: { amount: number }) => item.amount)).toEqual([5, 4, 3, 2, 1]);
    expect((await list(client, { page: 1, limit: 100 })).body.data.items).toHaveLength(25);
  });

  it('covers every store of the merchant and no other merchant', async () => {
    const { store, client } = await kit.merchant();
    const sibling = await kit.ops.addStore(store.merchantId);
    const other = await kit.merchant();
    await kit.ops.fund(store.storeId, 10);
    await kit.ops.fund(sibling.storeId, 20);
    await kit.ops.fund(other.store.storeId, 30);
    const items = (await list(client)).body.data.items;
    expect(
      items.map((item: { storeId: number; amount: number }) => [item.storeId, item.amount]),
    ).toEqual([
      [sibling.storeId, 20],
      [store.storeId, 10],
    ]);
    const fromSibling = (await list(new SigningClient(system.api.url, sibling))).body.data;
    expect(fromSibling.total).toBe(2);
  });

  it('records payin settlements with their fee as payin and payin_fee', async () => {
    const { store, client } = await kit.merchant();
    await kit.ops.call('patch', `/stores/${store.storeId}`, { payinFeePercent: '2.5' }).expect(200);
    const payin = await kit.payin(client, { amount: 200 });
    await client.onTransaction('patch', 'payin', payin.transactionId).expect(200);
    expect((await kit.ops.setStatus(payin.transactionId, 'success')).status).toBe(200);
    const items = (await list(client)).body.data.items;
    expect(items.map((item: { flow: string; amount: number }) => [item.flow, item.amount])).toEqual(
      [
        ['payin_fee', -5],
        ['payin', 200],
      ],
    );
    expect(items[0].balanceAfter).toBe(195);
  });
});
