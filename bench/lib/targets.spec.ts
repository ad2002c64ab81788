import { evaluateTargets, MeasurementFigures } from './targets';

const figure = (
  rps: number,
  p99: number,
  extra: Partial<MeasurementFigures> = {},
): MeasurementFigures => ({
  requestsPerSecond: { median: rps, min: rps, max: rps },
  p99Ms: { median: p99, min: p99, max: p99 },
  failures: 0,
  ...extra,
});

const pages = (p99: number, lastRps = 1000): Record<string, MeasurementFigures> => ({
  'c-first-20': figure(1000, p99),
  'c-random-20': figure(1000, p99),
  'c-last-20': figure(lastRps, p99),
  'c-first-100': figure(1000, p99),
  'c-random-100': figure(1000, p99),
  'c-last-100': figure(lastRps, p99),
});

const passing = (): Record<string, MeasurementFigures> => ({
  nest: figure(7000, 26),
  a: figure(5000, 40),
  a401: figure(6000, 30),
  b: figure(1200, 60),
  ...pages(10),
  d: figure(700, 80, { violations: 0 }),
  e: figure(900, 50, { rssGrowth: { 'merchant-api': 0.05, core: 0.02 } }),
});

const result = (figures: Record<string, MeasurementFigures | undefined>, scenario: string) =>
  evaluateTargets(figures).find((target) => target.scenario === scenario)!;

describe('evaluateTargets', () => {
  it('passes every target when each ratio is met', () => {
    const results = evaluateTargets(passing());
    expect(results.filter((target) => target.pass !== true)).toEqual([]);
    expect(results).toHaveLength(13);
  });

  it('misses (a) below 70% of bare NestJS or above twice its p99', () => {
    expect(result({ ...passing(), a: figure(4800, 40) }, '(a)').pass).toBe(false);
    expect(result({ ...passing(), a: figure(5000, 53) }, '(a)').pass).toBe(false);
  });

  it("misses (a') when the 401 path is slower than the read", () => {
    expect(result({ ...passing(), a401: figure(4900, 30) }, "(a')").pass).toBe(false);
  });

  it("states the create floor beside (b)'s figure without judging (b) by it", () => {
    const figures = { ...passing(), b: figure(600, 60), floor: figure(900, 40) };
    const b = result(figures, '(b)');
    expect(b.measured).toBe(
      '12% of (a) (600 req/s); 0 errors; create floor 18% of (a) (900 req/s)',
    );
    expect(b.pass).toBe(false);
    expect(result(passing(), '(b)').measured).toBe('24% of (a) (1,200 req/s); 0 errors');
  });

  it('misses (b) on a single error even at a high rate', () => {
    expect(result({ ...passing(), b: figure(1200, 60, { failures: 1 }) }, '(b)').pass).toBe(false);
  });

  it('misses a page over 25 ms and a last page under 90% of page 1', () => {
    expect(
      result({ ...passing(), 'c-last-100': figure(1000, 25.5) }, '(c) last page, limit 100').pass,
    ).toBe(false);
    expect(
      result({ ...passing(), ...pages(10, 899) }, '(c) last vs first page, limit 20').pass,
    ).toBe(false);
    expect(
      result({ ...passing(), ...pages(10, 900) }, '(c) last vs first page, limit 20').pass,
    ).toBe(true);
  });

  it('misses (d) on an invariant violation or under half of (b)', () => {
    expect(result({ ...passing(), d: figure(700, 80, { violations: 1 }) }, '(d)').pass).toBe(false);
    expect(result({ ...passing(), d: figure(599, 80, { violations: 0 }) }, '(d)').pass).toBe(false);
  });

  it('misses (e) when any service grows 10% or more', () => {
    expect(
      result(
        { ...passing(), e: figure(900, 50, { rssGrowth: { 'merchant-api': 0.1, core: 0 } }) },
        '(e)',
      ).pass,
    ).toBe(false);
  });

  it('leaves a target unevaluated when a measurement it needs is missing, and names what to profile', () => {
    const target = result({ ...passing(), nest: undefined }, '(a)');
    expect(target.pass).toBeUndefined();
    expect(target.profile).toEqual(['a']);
  });
});
