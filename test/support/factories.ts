import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { TestSystem } from './system';

export interface TestStore {
  merchantId: number;
  storeId: number;
  publicToken: string;
  privateToken: string;
}

/** Admin API calls as an operator makes them (decisions.md section 6). */
export function admin(system: Pick<TestSystem, 'core'>) {
  const token = system.core.config.secrets.adminToken;
  const call = (method: 'get' | 'post' | 'patch' | 'delete', path: string, body?: object) => {
    const req = request(system.core.url)[method](`/admin/v1${path}`).set('authorization', `Bearer ${token}`).set('x-admin-actor', 'e2e');
    return body === undefined ? req : req.send(body);
  };
  return {
    call,
    async createStore(options: { name?: string } = {}): Promise<TestStore> {
      const merchant = await call('post', '/merchants', { name: options.name ?? `merchant ${randomUUID()}` }).expect(201);
      const store = await call('post', `/merchants/${merchant.body.id}/stores`, { name: 'store' }).expect(201);
      return { merchantId: merchant.body.id, storeId: store.body.id, publicToken: store.body.publicToken, privateToken: store.body.privateToken };
    },
    /** Another store of an existing merchant (tenancy and balance tests). */
    async addStore(merchantId: number, name = 'second store'): Promise<TestStore> {
      const store = await call('post', `/merchants/${merchantId}/stores`, { name }).expect(201);
      return { merchantId, storeId: store.body.id, publicToken: store.body.publicToken, privateToken: store.body.privateToken };
    },
    async fund(storeId: number, amount: number): Promise<void> {
      await call('post', `/stores/${storeId}/adjustments`, { amount, comment: 'test funding' }).expect(201);
    },
    async setFlags(merchantId: number, flags: { payinEnabled?: boolean; payoutEnabled?: boolean; accountEnabled?: boolean }) {
      await call('patch', `/merchants/${merchantId}`, flags).expect(200);
    },
    async addPaymentDetails(details: Record<string, unknown> = {}): Promise<number> {
      const res = await call('post', '/payment-details', {
        cardName: 'TEST RECEIVER',
        bankName: 'Test Bank',
        cardNumber: '4111111111111111',
        ...details,
      }).expect(201);
      return res.body.id;
    },
    async setStatus(transactionId: string, status: string) {
      return call('post', `/transactions/${transactionId}/status`, { status });
    },
  };
}
