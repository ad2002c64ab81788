import { randomUUID } from 'node:crypto';
import { PaymentDetail, Transaction } from '@app/database';
import { hydrate } from '../../apps/core/src/common/sql';
import { insertTransaction } from '../../apps/core/src/transactions/external-id';
import { RunningApp, startCore } from '../support/system';
import { coreKit } from './core-test-kit';

/**
 * Creates hand the state machine, the ledger and the webhook outbox the row their INSERT
 * returned instead of reading it back: it must be exactly what a read gives.
 */
describe('core: rows as written equal rows as read', () => {
  let core: RunningApp;
  let kit: ReturnType<typeof coreKit>;

  beforeAll(async () => {
    core = await startCore();
    kit = coreKit(core);
  });
  afterAll(() => core.app.close());

  it('a payin and its payment detail, every column typed as TypeORM reads it', async () => {
    const store = await kit.storeWithDetails({ cardName: 'HYDRATE', minAmount: '1.00' });
    const { body } = await kit
      .createPayin(store.storeId, { externalId: `h-${randomUUID()}` })
      .expect(200);
    const manager = kit.db.manager;
    const [payin] = await manager.query('SELECT * FROM transactions WHERE id = $1', [
      body.transactionId,
    ]);
    const read = await manager.findOneByOrFail(Transaction, { id: body.transactionId });
    const hydrated = hydrate(manager, Transaction, payin);
    expect(hydrated).toBeInstanceOf(Transaction);
    expect(hydrated).toEqual(read);
    expect(hydrated.expiresAt).toBeInstanceOf(Date);

    const [detail] = await manager.query('SELECT * FROM payment_details WHERE id = $1', [
      store.detailId,
    ]);
    expect(hydrate(manager, PaymentDetail, detail)).toEqual(
      await manager.findOneByOrFail(PaymentDetail, { id: store.detailId }),
    );
  });

  it('insertTransaction returns the stored row, the database clock and defaults included', async () => {
    const store = await kit.storeWithDetails();
    const manager = kit.db.manager;
    await manager
      .transaction(async (tx) => {
        const id = randomUUID();
        const inserted = await insertTransaction(
          tx,
          {
            id,
            type: 'payout',
            merchantId: store.merchantId,
            storeId: store.storeId,
            requestHash: 'h',
            status: 'pending',
            amount: '12.30',
            currency: 'USD',
            exchangeRate: '1',
            clientId: '7',
          },
          60,
        );
        const read = await tx.findOneByOrFail(Transaction, { id });
        expect(inserted).toEqual(read);
        const [{ ttl }] = await tx.query(
          'SELECT extract(epoch FROM expires_at - created_at)::int AS ttl FROM transactions WHERE id = $1',
          [id],
        );
        expect(ttl).toBe(60);
        throw new Error('roll back');
      })
      .catch((error: Error) => expect(error.message).toBe('roll back'));
  });
});
