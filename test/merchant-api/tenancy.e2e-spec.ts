import { PNG } from '../support/documents';
import { SigningClient } from '../support/signing-client';
import { startSystem, TestSystem } from '../support/system';
import { merchantKit, TestMerchant } from './merchant-kit';

/**
 * decisions.md section 2: another merchant's transaction is 404 ERROR_TRANSACTION_NOT_FOUND,
 * never 403, on read, cancel, confirm, proof upload and payout cancel, and stays unchanged.
 */
describe('tenancy', () => {
  let system: TestSystem;
  let kit: ReturnType<typeof merchantKit>;
  let owner: TestMerchant;
  let stranger: TestMerchant;

  beforeAll(async () => {
    system = await startSystem();
    kit = merchantKit(system);
    owner = await kit.merchant({ funded: 100 });
    stranger = await kit.merchant({ funded: 100 });
  });
  afterAll(() => system.close());

  const notFound = { message: 'ERROR_TRANSACTION_NOT_FOUND' };

  // Once straight from the database, once with the owner's read already cached: the cache must not leak either.
  describe.each([
    ['not cached', false],
    ['cached by its owner', true],
  ])("another merchant's payin (%s)", (_label, warm) => {
    it('is 404 on read, cancel, confirm and proof upload, and stays pending', async () => {
      const payin = await kit.payin(owner.client);
      if (warm) await owner.client.onTransaction('get', 'payin', payin.transactionId).expect(200);
      await stranger.client
        .onTransaction('get', 'payin', payin.transactionId)
        .expect(404, notFound);
      await stranger.client
        .onTransaction('delete', 'payin', payin.transactionId)
        .expect(404, notFound);
      await stranger.client
        .onTransaction('patch', 'payin', payin.transactionId)
        .expect(404, notFound);
      await stranger.client
        .uploadProof(payin.transactionId, PNG, 'r.png', 'image/png')
        .expect(404, notFound);
      expect(await kit.storedStatus(payin.transactionId)).toBe('pending');
      const mine = await owner.client
        .onTransaction('get', 'payin', payin.transactionId)
        .expect(200);
      expect(mine.body.data).toEqual(payin);
    });

    it('is 404 on payout cancel, and the payout stays pending', async () => {
      const payout = await kit.payout(owner.client);
      if (warm) await owner.client.onTransaction('delete', 'payout', 'not-a-uuid').expect(400);
      await stranger.client
        .onTransaction('delete', 'payout', payout.transactionId)
        .expect(404, notFound);
      expect(await kit.storedStatus(payout.transactionId)).toBe('pending');
      const ledger = await owner.client.get('/api/v1/merchant/balance/changes').expect(200);
      expect(
        ledger.body.data.items.some((item: { flow: string }) => item.flow === 'payout_refund'),
      ).toBe(false);
    });
  });

  it("does not list another merchant's balance changes", async () => {
    const page = await stranger.client.get('/api/v1/merchant/balance/changes').expect(200);
    expect(
      page.body.data.items.every(
        (item: { storeId: number }) => item.storeId === stranger.store.storeId,
      ),
    ).toBe(true);
  });

  it("lets another store of the same merchant read the merchant's payins (the merchant is the tenant)", async () => {
    const payin = await kit.payin(owner.client);
    const sibling = await kit.ops.addStore(owner.store.merchantId);
    await new SigningClient(system.api.url, sibling)
      .onTransaction('get', 'payin', payin.transactionId)
      .expect(200);
  });
});
