import { getHeapStatistics } from 'node:v8';
import { createCache } from 'cache-manager';
import { Keyv } from 'keyv';
import { collectGarbage } from '../../../../test/support/v8-heap';
import { boundedMemoryStore, JSON_CODEC } from './read-cache.module';

describe('in-process read cache', () => {
  it('keeps at most its bound of entries, dropping the least recently used, so memory stays flat', async () => {
    const store = boundedMemoryStore(100, 1024 * 1024);
    const cache = createCache({ stores: [new Keyv({ store, ...JSON_CODEC })], ttl: 60_000 });
    await cache.set('first', { n: 0 });
    for (let i = 1; i <= 1_000; i++) {
      await cache.set(`k${i}`, { n: i });
      if (i % 10 === 0) await cache.get('first'); // read often: stays among the most recent
    }
    expect(await cache.get('k1000')).toEqual({ n: 1000 });
    expect(await cache.get('first')).toEqual({ n: 0 });
    expect(await cache.get('k1')).toBeUndefined();
    let kept = 0;
    for (let i = 1; i <= 1_000; i++) if ((await cache.get(`k${i}`)) !== undefined) kept += 1;
    expect(kept).toBeLessThanOrEqual(99);
  });

  it('still honours the TTL and deletes', async () => {
    const cache = createCache({
      stores: [new Keyv({ store: boundedMemoryStore(100, 1024 * 1024), ...JSON_CODEC })],
      ttl: 50,
    });
    await cache.set('a', { n: 1 });
    await cache.set('b', { n: 2 });
    await cache.del('b');
    expect(await cache.get('b')).toBeUndefined();
    expect(await cache.get('a')).toEqual({ n: 1 });
    await new Promise((done) => setTimeout(done, 80));
    expect(await cache.get('a')).toBeUndefined();
  });

  it('also keeps at most its bound of bytes: big values push out old ones long before the count is reached', async () => {
    const cache = createCache({
      stores: [new Keyv({ store: boundedMemoryStore(10_000, 100_000), ...JSON_CODEC })],
      ttl: 60_000,
    });
    const page = { items: 'x'.repeat(10_000) };
    for (let i = 0; i < 50; i++) await cache.set(`page${i}`, page);
    let kept = 0;
    for (let i = 0; i < 50; i++) if ((await cache.get(`page${i}`)) !== undefined) kept += 1;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThanOrEqual(10);
    expect(await cache.get('page49')).toEqual(page);
    await cache.set('huge', { items: 'x'.repeat(200_000) });
    expect(await cache.get('huge')).toBeUndefined();
    expect(await cache.get('page49')).toEqual(page);
  });

  it('keeps entries as bytes outside the JavaScript heap, and gives back any text exactly', async () => {
    const store = boundedMemoryStore(10_000, 64 * 1024 * 1024);
    const text = JSON.stringify({ text: 'Ünïcødé € 😀 '.repeat(600) });
    const entries = 800;
    // Each entry is a string of its own, garbage once set: were the store to keep the strings,
    // the heap would grow by about 800 × 16 KB (two bytes a character) = 12.5 MB.
    collectGarbage();
    const before = getHeapStatistics().used_heap_size;
    for (let i = 0; i < entries; i++) store.set(`entry${i}`, JSON.stringify({ i, text }));
    collectGarbage();
    const grown = getHeapStatistics().used_heap_size - before;
    expect(grown).toBeLessThan(2 * 1024 * 1024);
    expect(store.get('entry799')).toBe(JSON.stringify({ i: 799, text }));
    const cache = createCache({ stores: [new Keyv({ store, ...JSON_CODEC })], ttl: 60_000 });
    await cache.set('object', { text });
    expect(await cache.get('object')).toEqual({ text });
  });
});
