import {
  CpuProfile,
  HeapProfile,
  packageOf,
  shortUrl,
  summariseHeapProfile,
  summariseProfile,
} from './profile';

const BUILD = 'file:///repo/node_modules/.cache/payment-gateway-bench';

/** root → (idle); root → handler (our code) → typeorm query → JSON.stringify (native). */
const profile: CpuProfile = {
  startTime: 0,
  endTime: 100_000, // 100 ms, 100 samples
  nodes: [
    {
      id: 1,
      callFrame: { functionName: '(root)', url: '', lineNumber: -1 },
      hitCount: 0,
      children: [2, 3],
    },
    { id: 2, callFrame: { functionName: '(idle)', url: '', lineNumber: -1 }, hitCount: 20 },
    {
      id: 3,
      callFrame: {
        functionName: 'list',
        url: `${BUILD}/apps/merchant-api/src/balance/balance.service.js`,
        lineNumber: 9,
      },
      hitCount: 10,
      children: [4],
    },
    {
      id: 4,
      callFrame: {
        functionName: 'query',
        url: 'file:///repo/node_modules/typeorm/driver/postgres/PostgresQueryRunner.js',
        lineNumber: 99,
      },
      hitCount: 30,
      children: [5],
    },
    { id: 5, callFrame: { functionName: 'stringify', url: '', lineNumber: -1 }, hitCount: 40 },
  ],
};

describe('summariseProfile', () => {
  const summary = summariseProfile(profile);

  it('ranks functions by self time as shares of busy time', () => {
    expect(summary.topSelf.map((entry) => entry.name)).toEqual([
      'stringify',
      'query (typeorm/driver/postgres/PostgresQueryRunner.js:100)',
      'list (apps/merchant-api/src/balance/balance.service.js:10)',
    ]);
    expect(summary.topSelf[0].share).toBeCloseTo(0.5);
    expect(summary.idleShare).toBeCloseTo(0.2);
    expect(summary.total).toBeCloseTo(80);
  });

  it('gives our own functions their inclusive time, callees included', () => {
    expect(summary.topOwnInclusive).toEqual([
      { name: 'list (apps/merchant-api/src/balance/balance.service.js:10)', share: 1, amount: 80 },
    ]);
  });

  it('groups time by package', () => {
    expect(Object.fromEntries(summary.byPackage.map((entry) => [entry.name, entry.share]))).toEqual(
      {
        'native (V8 builtins, C++)': 0.5,
        typeorm: 0.375,
        'our code (apps/, libs/)': 0.125,
      },
    );
  });
});

describe('summariseHeapProfile', () => {
  const frame = (functionName: string, url: string, lineNumber = 0) => ({
    functionName,
    url,
    lineNumber,
  });
  const heap: HeapProfile = {
    head: {
      id: 1,
      callFrame: frame('(root)', ''),
      selfSize: 0,
      children: [
        {
          id: 2,
          callFrame: frame('remember', `${BUILD}/libs/auth/src/nonce-store.js`, 4),
          selfSize: 1000,
          children: [
            {
              id: 3,
              callFrame: frame('set', 'file:///repo/node_modules/keyv/dist/index.cjs', 9),
              selfSize: 3000,
              children: [],
            },
          ],
        },
        { id: 4, callFrame: frame('Buffer', 'node:buffer'), selfSize: 4000, children: [] },
      ],
    },
  };
  const summary = summariseHeapProfile(heap);

  it('ranks allocation sites by the bytes still alive and charges our callers with their callees', () => {
    expect(summary.total).toBe(8000);
    expect(summary.topSelf.map((entry) => [entry.name, entry.share])).toEqual([
      ['Buffer (node:buffer:1)', 0.5],
      ['set (keyv/dist/index.cjs:10)', 0.375],
      ['remember (libs/auth/src/nonce-store.js:5)', 0.125],
    ]);
    expect(summary.topOwnInclusive).toEqual([
      { name: 'remember (libs/auth/src/nonce-store.js:5)', share: 0.5, amount: 4000 },
    ]);
  });
});

describe('packageOf and shortUrl', () => {
  it('names scoped packages, Node internals and V8 pseudo-frames', () => {
    expect(
      packageOf({
        functionName: 'f',
        url: 'file:///r/node_modules/@nestjs/core/router/router-execution-context.js',
      }),
    ).toBe('@nestjs/core');
    expect(packageOf({ functionName: 'f', url: 'node:internal/streams/writable' })).toBe(
      'node internals',
    );
    expect(packageOf({ functionName: '(garbage collector)', url: '' })).toBe('(garbage collector)');
  });

  it('shows compiled files of ours by their repository path', () => {
    expect(shortUrl(`${BUILD}/libs/auth/src/signature.guard.js`)).toBe(
      'libs/auth/src/signature.guard.js',
    );
    expect(shortUrl('file:///r/node_modules/pino/lib/proto.js')).toBe('pino/lib/proto.js');
  });
});
