import {
  headlineRows,
  latency,
  markdownTable,
  MeasurementSummary,
  renderMarkdown,
  RunReport,
  ServiceProfile,
  SoakSummary,
  textTable,
} from './report';

const measurement = (
  id: string,
  rps: number,
  p99: number,
  extra: Partial<MeasurementSummary> = {},
): MeasurementSummary => ({
  id,
  label: id,
  connections: 50,
  expectedStatus: 200,
  rounds: 3,
  requestsPerSecond: { median: rps, min: rps - 100, max: rps + 100 },
  p50Ms: { median: 1, min: 1, max: 1 },
  p99Ms: { median: p99, min: p99, max: p99 },
  p999Ms: { median: p99 * 2, min: p99 * 2, max: p99 * 2 },
  non2xx: 0,
  errors: 0,
  unexpected: 0,
  rssMb: { 'merchant-api': 120.4 },
  bytesPerResponse: 1300,
  sampleErrors: [],
  otherCpu: 0.01,
  loadGeneratorCpu: 0.5,
  ...extra,
});

const report = (measurements: MeasurementSummary[]): RunReport => ({
  mode: 'full',
  startedAt: '2025-11-23T10:00:00.000Z',
  elapsedSeconds: 500,
  commit: 'abc1234',
  dirty: false,
  environment: {},
  settings: { rounds: 3 },
  measurements,
  profiles: [],
  errors: [],
});

describe('headlineRows', () => {
  const rows = headlineRows(
    report([
      measurement('node-http', 40_000, 5),
      measurement('nest', 8_000, 20),
      measurement('a401', 6_000, 30, { expectedStatus: 401, non2xx: 9000, unexpected: 2 }),
    ]),
  );
  const row = (id: string): string[] => rows.find((r) => r[0].startsWith(id))!;

  it('shows ratios of req/s and p99 against the bare NestJS and node:http baselines', () => {
    expect(row('a401').slice(9, 12)).toEqual(['0.75×', '0.15×', '1.50×']);
    expect(row('nest').slice(9, 12)).toEqual(['—', '0.20×', '—']);
  });

  it('has a cell under every header', () => {
    for (const cells of rows) expect(cells).toHaveLength(rows[0].length);
  });

  it('gives medians with min–max and marks a scenario that expects another status', () => {
    expect(row('nest')[2]).toBe('8,000 (7,900–8,100)');
    expect(row('a401')[0]).toBe('a401 (expects 401)');
    expect(row('a401')[6]).toBe('9,000 (2 unexpected)');
  });
});

describe('table renderers', () => {
  it('aligns text columns and escapes pipes in markdown', () => {
    expect(
      textTable([
        ['a', 'bb'],
        ['ccc', 'd'],
      ]),
    ).toBe('a    bb\n---  --\nccc  d');
    expect(markdownTable([['x'], ['a|b']])).toBe('| x |\n| --- |\n| a\\|b |');
  });

  it('prints latencies with a precision that suits their size', () => {
    expect([latency(0.4123), latency(3.456), latency(12.34), latency(104.4)]).toEqual([
      '0.412',
      '3.46',
      '12.3',
      '104',
    ]);
  });
});

describe('the soak section', () => {
  const memory = (heapUsedMb: number): NodeJS.MemoryUsage => ({
    rss: 120 * 1024 * 1024,
    heapUsed: heapUsedMb * 1024 * 1024,
    heapTotal: 50 * 1024 * 1024,
    external: 4 * 1024 * 1024,
    arrayBuffers: 1024 * 1024,
  });
  const soak = (heap: ServiceProfile[]): SoakSummary => ({
    durationSeconds: 300,
    connections: 20,
    requestsPerSecond: 300,
    p50Ms: 60,
    p99Ms: 150,
    p999Ms: 200,
    non2xx: 0,
    errors: 0,
    steps: {},
    rssStartMb: { 'merchant-api': 180 },
    rssEndMb: { 'merchant-api': 190 },
    rssPeakMb: { 'merchant-api': 200 },
    rssTrace: [],
    sampleErrors: [],
    otherCpu: 0,
    loadGeneratorCpu: 0.1,
    heap,
  });
  const rendered = (heap: ServiceProfile[]): string =>
    renderMarkdown({ ...report([]), soak: soak(heap) });
  const withoutSampler: ServiceProfile = {
    service: 'merchant-api',
    file: 'e.merchant-api.heapprofile.json',
    memoryAtStart: memory(40),
    memoryAtEnd: memory(50),
  };

  it('shows the live heap at both ends and says the allocation sites were not sampled', () => {
    const text = rendered([withoutSampler]);
    expect(text).toContain('| start (after a full GC) | 120.0 | 40.0 |');
    expect(text).toContain('| end (after a full GC) | 120.0 | 50.0 |');
    expect(text).toContain('grew 25% over the soak');
    expect(text).toContain('`--heap-profile` names what allocated them');
    expect(text).toContain('Allocation sites not sampled');
  });

  it('lists the allocation sites when the soak ran under the heap sampler', () => {
    const site = { name: 'set (keyv/dist/index.cjs:731)', amount: 2 * 1024 * 1024, share: 0.5 };
    const text = rendered([
      {
        ...withoutSampler,
        summary: {
          total: 4 * 1024 * 1024,
          idleShare: 0,
          topSelf: [site],
          byPackage: [],
          topOwnInclusive: [],
        },
      },
    ]);
    expect(text).toContain('| `set (keyv/dist/index.cjs:731)` | 2.0 | 50.0% |');
    expect(text).not.toContain('Allocation sites not sampled');
  });

  it('says why a service has no heap figures', () => {
    const text = rendered([{ service: 'core', file: 'x', error: 'no profile was written' }]);
    expect(text).toContain('Not captured: no profile was written');
  });
});

describe('the profiles section', () => {
  it('says that a system call shares the CPU wait of processes that share a CPU, and gives each process its real CPU', () => {
    const markdown = renderMarkdown({
      ...report([measurement('b', 100, 900)]),
      profiles: [
        {
          measurement: 'b',
          label: '(b) payin create, end to end',
          services: [],
          cpu: { 'merchant-api': 0.36, core: 0.39, PostgreSQL: 0.21 },
        },
      ],
    });
    expect(markdown).toContain('## CPU profiles of missed targets');
    expect(markdown).toContain('the shares of `writev` and the like are mostly that wait');
    expect(markdown).toContain(
      'CPU used during the window, in CPUs: merchant-api 0.36, core 0.39, PostgreSQL 0.21.',
    );
  });
});
