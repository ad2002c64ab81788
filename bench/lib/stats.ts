/** Small statistics helpers for the harness: pure, so the spec beside them pins them down. */

/**
 * Nearest-rank percentile of values already sorted ascending (`p` in 0..100). Nearest rank,
 * not interpolation, so p99.9 of a run is a latency some request really had.
 */
export function percentileOfSorted(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  if (p <= 0) return sorted[0];
  // The epsilon keeps float noise (99.9% of 1000 = 999.0000000000001) from skipping a rank.
  const rank = Math.ceil((p * sorted.length) / 100 - 1e-9);
  return sorted[Math.min(sorted.length, rank) - 1];
}

export interface Spread {
  median: number;
  min: number;
  max: number;
}

/** Median with min and max: how the harness summarises a figure over its rounds. */
export function spread(values: number[]): Spread {
  const finite = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (finite.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN };
  const middle = Math.floor(finite.length / 2);
  const median =
    finite.length % 2 === 1 ? finite[middle] : (finite[middle - 1] + finite[middle]) / 2;
  return { median, min: finite[0], max: finite[finite.length - 1] };
}

/** A growable buffer of latencies, cheaper than an array of boxed numbers at 10^5..10^6 samples. */
export class SampleBuffer {
  private data = new Float64Array(1 << 16);
  private size = 0;

  push(value: number): void {
    if (this.size === this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.size++] = value;
  }

  get length(): number {
    return this.size;
  }

  /** The samples sorted ascending (a copy; the buffer keeps its order). */
  sorted(): Float64Array {
    return this.data.slice(0, this.size).sort();
  }
}
