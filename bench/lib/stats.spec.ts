import { percentileOfSorted, SampleBuffer, spread } from './stats';

describe('percentileOfSorted', () => {
  const values = Array.from({ length: 1000 }, (_, i) => i + 1); // 1..1000

  it('takes the nearest rank, a value some request really had', () => {
    expect(percentileOfSorted(values, 50)).toBe(500);
    expect(percentileOfSorted(values, 99)).toBe(990);
    expect(percentileOfSorted(values, 99.9)).toBe(999);
    expect(percentileOfSorted(values, 100)).toBe(1000);
  });

  it('answers the only value of a single sample and NaN of none', () => {
    expect(percentileOfSorted([7], 99.9)).toBe(7);
    expect(percentileOfSorted([], 50)).toBeNaN();
  });
});

describe('spread', () => {
  it('gives the median with min and max, whatever the order', () => {
    expect(spread([30, 10, 20])).toEqual({ median: 20, min: 10, max: 30 });
  });

  it('averages the middle pair of an even count and ignores NaN', () => {
    expect(spread([4, 1, Number.NaN, 2, 3])).toEqual({ median: 2.5, min: 1, max: 4 });
  });
});

describe('SampleBuffer', () => {
  it('keeps every sample past its initial capacity and sorts numerically', () => {
    const buffer = new SampleBuffer();
    for (let i = 70_000; i > 0; i--) buffer.push(i / 10);
    const sorted = buffer.sorted();
    expect(buffer.length).toBe(70_000);
    expect(sorted[0]).toBe(0.1);
    expect(sorted[69_999]).toBe(7000);
    expect(sorted[10]).toBeLessThan(sorted[11]);
  });
});
