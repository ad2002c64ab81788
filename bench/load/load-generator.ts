import { readFileSync, writeFileSync } from 'node:fs';
import autocannon, { Request, Result } from 'autocannon';
import { percentileOfSorted, SampleBuffer } from '../lib/stats';
import type { LoadResult, LoadSpec } from './load-spec';
import { buildPlan } from './plans';
import { extraWarmupSeconds } from './warmup';

/**
 * The load generator: a separate process (pinned by the orchestrator to its own CPU) that runs
 * autocannon against one URL, first a warm-up whose figures are dropped, then the measured run.
 *
 * Latencies are taken from every response at full resolution (autocannon's own histogram keeps
 * whole milliseconds), so sub-millisecond medians and p99.9 come out exact.
 *
 * Usage: node load-generator.js <spec.json>  (writes the LoadResult to spec.resultFile)
 */
async function main(): Promise<void> {
  const spec = JSON.parse(readFileSync(process.argv[2], 'utf8')) as LoadSpec;
  const warmup = await warmUp(spec);
  // Tells the orchestrator the measured window starts now.
  process.stdout.write('measuring\n');
  const result = await run(spec, spec.durationSeconds, 'measured');
  writeFileSync(spec.resultFile, JSON.stringify({ ...result, warmup }));
}

/** The warm-up, lengthened for a scenario that answered too few requests to be warm yet. */
async function warmUp(spec: LoadSpec): Promise<LoadResult['warmup']> {
  if (spec.warmupSeconds <= 0) return { seconds: 0, responses: 0 };
  const first = await run(spec, spec.warmupSeconds, 'warmup');
  const extra = extraWarmupSeconds(
    { responses: spec.warmupResponses, maxSeconds: spec.warmupMaxSeconds },
    { responses: first.responses, seconds: first.durationSeconds },
  );
  if (extra === 0) return { seconds: first.durationSeconds, responses: first.responses };
  const second = await run(spec, extra, 'warmup-2');
  return {
    seconds: first.durationSeconds + second.durationSeconds,
    responses: first.responses + second.responses,
  };
}

async function run(
  spec: LoadSpec,
  seconds: number,
  phase: string,
): Promise<Omit<LoadResult, 'warmup'>> {
  const built = buildPlan(spec.plan, phase);
  const latencies = new SampleBuffer();
  const sampleErrors: string[] = [];
  let bytes = 0;

  // Keep the first few unexpected bodies: they say what went wrong far better than a count.
  const requests = built.requests.map((request) => {
    const inner = typeof request.onResponse === 'function' ? request.onResponse : undefined;
    const onResponse: Request['onResponse'] = (status, body, context, headers) => {
      if (status >= 300 && sampleErrors.length < 5)
        sampleErrors.push(`${status} ${body.slice(0, 300)}`);
      inner?.(status, body, context, headers);
    };
    return { ...request, onResponse };
  });

  const cpuBefore = process.cpuUsage();
  const result = await new Promise<Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.url,
        connections: spec.connections,
        duration: seconds,
        timeout: spec.timeoutSeconds,
        requests,
      },
      (error: unknown, done: Result) =>
        error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(done),
    );
    instance.on('response', (_client, _statusCode, resBytes, responseTime) => {
      latencies.push(responseTime);
      bytes += resBytes;
    });
  });

  const sorted = latencies.sorted();
  let total = 0;
  for (const value of sorted) total += value;
  const statuses: Record<string, number> = {};
  for (const [status, { count }] of Object.entries(result.statusCodeStats ?? {}) as Array<
    [string, { count: number | string }]
  >) {
    statuses[status] = Number(count);
  }
  const responses = latencies.length;
  return {
    responses,
    durationSeconds: result.duration,
    requestsPerSecond: responses / result.duration,
    latencyMs: {
      p50: percentileOfSorted(sorted, 50),
      p90: percentileOfSorted(sorted, 90),
      p99: percentileOfSorted(sorted, 99),
      p999: percentileOfSorted(sorted, 99.9),
      max: sorted.length ? sorted[sorted.length - 1] : Number.NaN,
      mean: responses ? total / responses : Number.NaN,
    },
    statuses,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    bytesPerResponse: responses ? bytes / responses : 0,
    steps: built.steps,
    sampleErrors,
    ownCpu: cpuShare(process.cpuUsage(cpuBefore), result.duration),
  };
}

/** CPU time the generator used per second of the run: near 1, the generator itself was the limit. */
function cpuShare(usage: NodeJS.CpuUsage, seconds: number): number {
  return (usage.user + usage.system) / 1e6 / Math.max(0.001, seconds);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `load generator failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
