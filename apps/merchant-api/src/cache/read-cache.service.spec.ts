import { Logger } from '@nestjs/common';
import { createCache } from 'cache-manager';
import { Keyv } from 'keyv';
import { ReadCache } from './read-cache.service';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

async function coherentCache(): Promise<ReadCache> {
  const cache = new ReadCache(createCache({ stores: [new Keyv()] }), {
    ttlMs: 60_000,
    operationTimeoutMs: 250,
  });
  await cache.resync();
  return cache;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('ReadCache', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('reads through once, then serves the cached value', async () => {
    const cache = await coherentCache();
    const load = jest.fn(async () => ({ status: 'pending' }));
    expect(await cache.readThrough('k', load)).toEqual({ status: 'pending' });
    expect(await cache.readThrough('k', load)).toEqual({ status: 'pending' });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('with second-miss admission, caches a key only when it misses a second time', async () => {
    const cache = await coherentCache();
    const load = jest.fn(async () => ({ page: 7 }));
    for (let read = 0; read < 4; read += 1)
      expect(await cache.readThrough('page:7', load, 'page:7', 'second-miss')).toEqual({ page: 7 });
    expect(load).toHaveBeenCalledTimes(2);
    const once = jest.fn(async () => ({ page: 8 }));
    await cache.readThrough('page:8', once, 'page:8', 'second-miss');
    expect(await cache.get('page:8')).toBeUndefined();
  });

  it('does not cache a miss', async () => {
    const cache = await coherentCache();
    const load = jest.fn(async () => null);
    await cache.readThrough('k', load);
    await cache.readThrough('k', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('after close, reads load from the database and nothing reaches the store', async () => {
    const store = createCache({ stores: [new Keyv()] });
    const cache = new ReadCache(store, { ttlMs: 60_000 });
    await cache.resync();
    await cache.readThrough('k', async () => ({ status: 'pending' }));
    cache.close();
    const calls = ['get', 'set', 'del', 'clear'].map((method) =>
      jest.spyOn(store, method as 'get' | 'set' | 'del' | 'clear'),
    );
    const load = jest.fn(async () => ({ status: 'canceled' }));
    expect(await cache.readThrough('k', load)).toEqual({ status: 'canceled' });
    await cache.invalidate('k');
    expect(await cache.resync()).toBe(false);
    expect(cache.isCoherent).toBe(false);
    expect(load).toHaveBeenCalledTimes(1);
    for (const call of calls) expect(call).not.toHaveBeenCalled();
  });

  it('loads again after an invalidation', async () => {
    const cache = await coherentCache();
    let status = 'pending';
    await cache.readThrough('k', async () => ({ status }));
    status = 'canceled';
    await cache.invalidate('k');
    expect(await cache.readThrough('k', async () => ({ status }))).toEqual({ status: 'canceled' });
  });

  it('does not put back a value loaded before an invalidation that arrived while it loaded', async () => {
    const cache = await coherentCache();
    const slow = deferred<{ status: string }>();
    const stale = cache.readThrough('k', () => slow.promise);
    await new Promise((done) => setImmediate(done));
    await cache.invalidate('k');
    slow.resolve({ status: 'pending' });
    expect(await stale).toEqual({ status: 'pending' });
    expect(await cache.readThrough('k', async () => ({ status: 'canceled' }))).toEqual({
      status: 'canceled',
    });
  });

  it('bypasses the cache while change notifications are interrupted, and starts clean after', async () => {
    const cache = await coherentCache();
    await cache.readThrough('k', async () => ({ status: 'pending' }));
    cache.markIncoherent();
    const load = jest.fn(async () => ({ status: 'expired' }));
    expect(await cache.readThrough('k', load)).toEqual({ status: 'expired' });
    expect(await cache.readThrough('k', load)).toEqual({ status: 'expired' });
    expect(load).toHaveBeenCalledTimes(2);
    await cache.resync();
    expect(await cache.readThrough('k', async () => ({ status: 'expired' }))).toEqual({
      status: 'expired',
    });
  });

  it('is incoherent, so bypassed, until the listener first connects', async () => {
    const cache = new ReadCache(createCache({ stores: [new Keyv()] }), {
      ttlMs: 60_000,
      operationTimeoutMs: 250,
    });
    const load = jest.fn(async () => ({ n: 1 }));
    await cache.readThrough('k', load);
    await cache.readThrough('k', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  /** A store in front of a real in-process one, whose operations can be made to stall or fail. */
  function flakyStore() {
    const inner = createCache({ stores: [new Keyv()] });
    const mode = { get: 'ok', set: 'ok', del: 'ok' } as Record<
      'get' | 'set' | 'del',
      'ok' | 'fail' | 'stall'
    >;
    const run = <T>(which: 'get' | 'set' | 'del', operation: () => Promise<T>): Promise<T> =>
      mode[which] === 'ok'
        ? operation()
        : mode[which] === 'stall'
          ? new Promise<T>(() => undefined)
          : Promise.reject(new Error('redis down'));
    const store = {
      get: (key: string) => run('get', () => inner.get(key)),
      set: (key: string, value: unknown, ttl?: number) =>
        run('set', () => inner.set(key, value, ttl)),
      del: (key: string) => run('del', () => inner.del(key)),
      // Like @keyv/redis, clear() reports success even when the store is unreachable.
      clear: async () => true,
    };
    return { mode, store, inner };
  }

  it('treats a stalled or failing read as a miss, quickly', async () => {
    const { mode, store } = flakyStore();
    const cache = new ReadCache(store as never, { ttlMs: 60_000, operationTimeoutMs: 20 });
    expect(await cache.resync()).toBe(true);
    mode.get = 'stall';
    const started = Date.now();
    expect(await cache.readThrough('k', async () => ({ n: 1 }))).toEqual({ n: 1 });
    expect(Date.now() - started).toBeLessThan(500);
    mode.get = 'fail';
    expect(await cache.readThrough('k', async () => ({ n: 2 }))).toEqual({ n: 2 });
  });

  it('waits for the in-process store however long it takes: only a remote store gets a timeout', async () => {
    const { store } = flakyStore();
    const slow = { ...store, get: (key: string) => delay(60).then(() => store.get(key)) };
    const load = jest.fn(async () => ({ n: 1 }));
    const inProcess = new ReadCache(slow as never, { ttlMs: 60_000 });
    expect(await inProcess.resync()).toBe(true);
    await inProcess.readThrough('k', load);
    expect(await inProcess.readThrough('k', load)).toEqual({ n: 1 });
    expect(load).toHaveBeenCalledTimes(1);
    const remote = new ReadCache(slow as never, { ttlMs: 60_000, operationTimeoutMs: 20 });
    expect(await remote.readThrough('k', load)).toEqual({ n: 1 });
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('does not enable itself on a store it cannot write, however clear() answers', async () => {
    const { mode, store } = flakyStore();
    mode.set = 'fail';
    const cache = new ReadCache(store as never, { ttlMs: 60_000, operationTimeoutMs: 20 });
    expect(await cache.resync()).toBe(false);
    expect(cache.isCoherent).toBe(false);
    mode.set = 'ok';
    expect(await cache.resync()).toBe(true);
  });

  it('turns itself off when an invalidation fails, so a surviving entry is never served', async () => {
    const { mode, store, inner } = flakyStore();
    const cache = new ReadCache(store as never, { ttlMs: 60_000, operationTimeoutMs: 20 });
    await cache.resync();
    await cache.readThrough('k', async () => ({ status: 'pending' }));
    mode.del = 'fail';
    await cache.invalidate('k');
    expect(cache.isCoherent).toBe(false);
    expect(await inner.get('k')).toEqual({ status: 'pending' });
    expect(await cache.readThrough('k', async () => ({ status: 'canceled' }))).toEqual({
      status: 'canceled',
    });
  });
});
