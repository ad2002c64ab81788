import { ResolvedStore, StoreCredentialsCache } from './store-credentials.cache';

const store = (privateToken: string, storeId = 1, merchantId = 2): ResolvedStore => ({
  storeId,
  merchantId,
  privateTokenEnc: 'sealed',
  privateToken,
  requireReplayProtection: false,
  merchant: { payinEnabled: true, payoutEnabled: true, accountEnabled: true },
});

describe('StoreCredentialsCache', () => {
  it('reads through to the loader until the listener activates it', async () => {
    const cache = new StoreCredentialsCache();
    const load = jest.fn(async () => store('sk_1'));
    await cache.resolve('pk', load);
    await cache.resolve('pk', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('once active, loads a token once and answers from memory after', async () => {
    const cache = new StoreCredentialsCache();
    cache.activate();
    const load = jest.fn(async () => store('sk_1'));
    expect((await cache.resolve('pk', load))?.privateToken).toBe('sk_1');
    expect((await cache.resolve('pk', load))?.privateToken).toBe('sk_1');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('never caches an unknown token', async () => {
    const cache = new StoreCredentialsCache();
    cache.activate();
    const load = jest.fn(async () => null);
    await cache.resolve('pk_unknown', load);
    await cache.resolve('pk_unknown', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('forgets everything on clear(), and a load that straddles the clear is not kept', async () => {
    const cache = new StoreCredentialsCache();
    cache.activate();
    await cache.resolve('pk', async () => store('sk_old'));
    cache.clear();
    let release: () => void = () => undefined;
    const straddling = cache.resolve(
      'pk',
      () => new Promise<ResolvedStore>((done) => (release = () => done(store('sk_read_before')))),
    );
    cache.clear();
    release();
    expect((await straddling)?.privateToken).toBe('sk_read_before');
    expect((await cache.resolve('pk', async () => store('sk_new')))?.privateToken).toBe('sk_new');
  });

  it("forgets only the announced store, or only the announced merchant's stores", async () => {
    const cache = new StoreCredentialsCache();
    cache.activate();
    const loads = new Map<string, number>();
    const resolve = (token: string, storeId: number, merchantId: number) =>
      cache.resolve(token, async () => {
        loads.set(token, (loads.get(token) ?? 0) + 1);
        return store(`sk_${token}`, storeId, merchantId);
      });
    const all = async () => {
      await resolve('a', 1, 10);
      await resolve('b', 2, 10);
      await resolve('c', 3, 20);
    };
    await all();
    cache.forgetStore(2);
    await all();
    expect(Object.fromEntries(loads)).toEqual({ a: 1, b: 2, c: 1 });
    cache.forgetMerchant(10);
    await all();
    expect(Object.fromEntries(loads)).toEqual({ a: 2, b: 3, c: 1 });
  });

  it('does not keep a load that straddles the forgetting of any store', async () => {
    const cache = new StoreCredentialsCache();
    cache.activate();
    let release: () => void = () => undefined;
    const straddling = cache.resolve(
      'pk',
      () => new Promise<ResolvedStore>((done) => (release = () => done(store('sk_read_before')))),
    );
    cache.forgetStore(99);
    release();
    await straddling;
    const load = jest.fn(async () => store('sk_new'));
    expect((await cache.resolve('pk', load))?.privateToken).toBe('sk_new');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('suspend() drops the entries and reads every request from the loader until reactivated', async () => {
    const cache = new StoreCredentialsCache();
    cache.activate();
    await cache.resolve('pk', async () => store('sk_1'));
    cache.suspend();
    const load = jest.fn(async () => store('sk_2'));
    await cache.resolve('pk', load);
    await cache.resolve('pk', load);
    expect(load).toHaveBeenCalledTimes(2);
    expect(cache.isActive).toBe(false);
  });
});
