import { setFlagsFromString } from 'node:v8';
import type { AppConfig } from './config';

/**
 * Process-wide settings a service applies once, first thing in its `main`.
 *
 * HEAP_GROWING_PERCENT trades CPU for a flat resident size. By default V8 lets the old
 * generation grow to several times what its last full collection kept alive before collecting
 * again. These services keep about 40 MB alive, and a request that waits on the database
 * outlives two scavenges, so much of their garbage is old: under a 5-minute soak merchant-api's
 * old generation reached about 90 MB between full collections in some runs and 180 MB in others.
 * A growing percent fixes that limit, but a small one makes every full collection come sooner.
 * Measured (docs/benchmarks.md, (e)):
 * 50 kept a 2-minute soak (under the heap sampler) within +7% and cost the cached read 8 to 23%
 * of its throughput, 20 a fifth; 100 kept a 5-minute soak's old generation under 103 MB with as
 * many full collections as V8's own choice in its smaller runs. Off unless an operator with a
 * tight memory limit turns it on. V8 reads the flag at each full collection, so setting it after
 * start-up takes effect.
 */
export function applyRuntimeSettings(config: Pick<AppConfig, 'heapGrowingPercent'>): void {
  if (config.heapGrowingPercent > 0) {
    setFlagsFromString(`--heap-growing-percent=${config.heapGrowingPercent}`);
  }
}
