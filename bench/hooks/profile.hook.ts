import { renameSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { PROFILE_SIGNAL } from './profile-signal';

/**
 * Preloaded (`node -r`) into a service the harness profiles; PROFILE_SIGNAL starts, the next one
 * stops and writes, so only the measured window is recorded.
 *
 * - BENCH_CPU_PROFILE: the V8 CPU profile `--cpu-prof` writes, minus the boot (module loading,
 *   Nest's scan); `--cpu-prof` also writes nothing when Nest's SIGTERM hook ends the process.
 * - BENCH_HEAP_PROFILE: `process.memoryUsage()` after a full GC at start and at stop, so the live
 *   heap's growth is told apart from RSS growth. With BENCH_HEAP_SAMPLING=1 also V8's sampling heap
 *   profiler, whose profile holds the allocations still alive at stop, by the stack that made them.
 *   The sampler is opt-in because it changes what it observes: with it on, V8 lets the old
 *   generation grow larger between full collections (docs/benchmarks.md, (e)).
 */
const cpuTarget = process.env.BENCH_CPU_PROFILE;
const heapTarget = process.env.BENCH_HEAP_PROFILE;
const heapSampling = Boolean(heapTarget) && process.env.BENCH_HEAP_SAMPLING === '1';

if (cpuTarget || heapTarget) {
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object): Promise<unknown> =>
    new Promise((resolve, reject) =>
      session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    );
  // The harness waits for the final name, so it never reads a half-written file.
  const write = (target: string, content: unknown): void => {
    writeFileSync(`${target}.partial`, JSON.stringify(content));
    renameSync(`${target}.partial`, target);
  };
  let running = false;
  let memoryAtStart: NodeJS.MemoryUsage | undefined;

  const start = async (): Promise<void> => {
    // After a full GC, so start and end compare what is live, not how lazily V8 collected.
    if (heapTarget) await post('HeapProfiler.collectGarbage');
    memoryAtStart = process.memoryUsage();
    if (cpuTarget) {
      await post('Profiler.enable');
      await post('Profiler.setSamplingInterval', { interval: 200 });
      await post('Profiler.start');
    }
    if (heapSampling) {
      await post('HeapProfiler.enable');
      await post('HeapProfiler.startSampling', { samplingInterval: 256 * 1024 });
    }
  };

  const stop = async (): Promise<void> => {
    if (cpuTarget)
      write(cpuTarget, ((await post('Profiler.stop')) as { profile: unknown }).profile);
    if (heapTarget) {
      // Collect first, so the profile holds what is retained, not garbage not yet swept.
      await post('HeapProfiler.collectGarbage');
      const profile = heapSampling
        ? ((await post('HeapProfiler.stopSampling')) as { profile: object }).profile
        : undefined;
      // The profile's own fields stay at the top, so the file still opens as a .heapprofile.
      write(heapTarget, { ...profile, memoryAtStart, memoryAtEnd: process.memoryUsage() });
    }
  };

  process.on(PROFILE_SIGNAL, () => {
    const step = running ? stop() : start();
    running = !running;
    step.catch((error: unknown) => process.stderr.write(`profile hook: ${String(error)}\n`));
  });
}
