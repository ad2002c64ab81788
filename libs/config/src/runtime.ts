import { setFlagsFromString } from 'node:v8';
import type { AppConfig } from './config';

/**
 * Process-wide settings a service applies once, first thing in its `main`.
 *
 * HEAP_GROWING_PERCENT trades CPU for a flat resident size. By default V8 lets the old
 * generation grow to several times what its last full collection kept alive before collecting
 * again. These services keep about 40 MB alive, and a request that waits on the database
 * outlives two scavenges, so much of their garbage is old: over a 5-minute soak merchant-api's
 * resident size climbed by half while its live heap grew 10%. A small growing percent keeps the
 * size flat, but every full collection then comes sooner. Measured (docs/benchmarks.md, (e)):
 * 50 kept a 2-minute soak within +7% and cost the cached read a fifth of its throughput; 20 cost
 * more. So it is off unless an operator with a tight memory limit turns it on. V8 reads the flag
 * at each full collection, so setting it after start-up takes effect.
 */
export function applyRuntimeSettings(config: Pick<AppConfig, 'heapGrowingPercent'>): void {
  if (config.heapGrowingPercent > 0) {
    setFlagsFromString(`--heap-growing-percent=${config.heapGrowingPercent}`);
  }
}
