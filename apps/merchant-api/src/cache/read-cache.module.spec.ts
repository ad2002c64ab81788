import { createCache } from 'cache-manager';
import { Keyv } from 'keyv';
import { boundedMemoryStore } from './read-cache.module';

describe('in-process read cache', () => {
  it('keeps at most its bound of entries, dropping the least recently used, so memory stays flat', async () => {
    const store = boundedMemoryStore(100);
    const cache = createCache({ stores: [new Keyv({ store })], ttl: 60_000 });
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
    const cache = createCache({ stores: [new Keyv({ store: boundedMemoryStore(100) })], ttl: 50 });
    await cache.set('a', { n: 1 });
    await cache.set('b', { n: 2 });
    await cache.del('b');
    expect(await cache.get('b')).toBeUndefined();
    expect(await cache.get('a')).toEqual({ n: 1 });
    await new Promise((done) => setTimeout(done, 80));
    expect(await cache.get('a')).toBeUndefined();
  });
});
