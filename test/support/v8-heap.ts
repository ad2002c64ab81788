import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection on demand, so a measurement of the JavaScript heap counts what is
 * alive, not the garbage the other suites of this worker left behind.
 */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

function oldSpaceUsed(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')!
    .space_used_size;
}

/**
 * Bytes by which V8's old generation grows per call of `call`, measured over `calls` calls after
 * `warmup` (so the code is compiled and its hidden classes exist) and a full collection. What a
 * call allocates and drops at once dies young and never shows here; what shows is what outlives
 * two scavenges, and what V8 allocates in the old generation directly, such as a hidden class
 * built per call (docs/benchmarks.md, "The validation pipe's hidden classes").
 */
export async function oldGenerationBytesPerCall(
  call: () => Promise<unknown>,
  { calls, warmup }: { calls: number; warmup: number },
): Promise<number> {
  for (let i = 0; i < warmup; i++) await call();
  collectGarbage();
  const before = oldSpaceUsed();
  for (let i = 0; i < calls; i++) await call();
  return (oldSpaceUsed() - before) / calls;
}

/** V8's own answer to "is this object in fast mode (a hidden class, not a dictionary)?". */
export function hasFastProperties(value: object): boolean {
  setFlagsFromString('--allow-natives-syntax');
  return (new Function('value', 'return %HasFastProperties(value)') as (v: object) => boolean)(
    value,
  );
}

/**
 * Whether V8 gave two objects the same hidden class. Objects built by the same code should: when
 * each gets one of its own, every call pays for building it (in the old generation) and every
 * inline cache that meets the objects misses.
 */
export function haveSameHiddenClass(a: object, b: object): boolean {
  setFlagsFromString('--allow-natives-syntax');
  return (new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean)(
    a,
    b,
  );
}
