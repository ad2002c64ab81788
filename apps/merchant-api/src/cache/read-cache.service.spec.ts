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
  const cache = new ReadCache(createCache({ stores: [new Keyv()] }), { ttlMs: 60_000, operationTimeoutMs: 250 });
  await cache.resync();
  return cache;
}

describe('ReadCache', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('reads through once, then serves the cached value', async () => {
    const cache = await coherentCache();
    const load = jest.fn(async () => ({ status: 'pending' }));
    expect(await cache.readThrough('k', load)).toEqual({ status: 'pending' });
    expect(await cache.readThrough('k', load)).toEqual({ status: 'pending' });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('does not cache a miss', async () => {
    const cache = await coherentCache();
    const load = jest.fn(async () => null);
    await cache.readThrough('k', load);
    await cache.readThrough('k', load);
    expect(load).toHaveBeenCalledTimes(2);
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
    expect(await cache.readThrough('k', async () => ({ status: 'canceled' }))).toEqual({ status: 'canceled' });
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
    expect(await cache.readThrough('k', async () => ({ status: 'expired' }))).toEqual({ status: 'expired' });
  });

  it('is incoherent, so bypassed, until the listener first connects', async () => {
    const cache = new ReadCache(createCache({ stores: [new Keyv()] }), { ttlMs: 60_000, operationTimeoutMs: 250 });
    const load = jest.fn(async () => ({ n: 1 }));
    await cache.readThrough('k', load);
    await cache.readThrough('k', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('treats a stalled or failing store as a miss', async () => {
    const stalled = { get: () => new Promise(() => undefined), set: () => new Promise(() => undefined), del: async () => true, clear: async () => true };
    const cache = new ReadCache(stalled as never, { ttlMs: 60_000, operationTimeoutMs: 20 });
    await cache.resync();
    const started = Date.now();
    expect(await cache.readThrough('k', async () => ({ n: 1 }))).toEqual({ n: 1 });
    expect(Date.now() - started).toBeLessThan(500);

    const failing = { get: async () => Promise.reject(new Error('down')), set: async () => Promise.reject(new Error('down')), del: async () => true, clear: async () => true };
    const cache2 = new ReadCache(failing as never, { ttlMs: 60_000, operationTimeoutMs: 20 });
    await cache2.resync();
    expect(await cache2.readThrough('k', async () => ({ n: 2 }))).toEqual({ n: 2 });
  });
});
