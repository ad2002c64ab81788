/**
 * How long a warm-up runs, after its first part (`--warmup` seconds): a scenario that answered
 * fewer than `responses` by then (a create at a hundred a second, where a cached read answers
 * thousands) is warmed up again for as long as its rate says the rest takes, but never beyond
 * `maxSeconds` in all. A create's code path runs so rarely that a one-second warm-up left most of
 * it to V8's interpreter, and the measurement then timed the JIT compiler (docs/benchmarks.md).
 */
export interface WarmupPolicy {
  responses: number;
  maxSeconds: number;
}

/** Seconds of a second warm-up after a first one that got `responses` in `seconds`; 0 for none. */
export function extraWarmupSeconds(
  policy: WarmupPolicy,
  first: { responses: number; seconds: number },
): number {
  const missing = policy.responses - first.responses;
  const left = Math.floor(policy.maxSeconds - first.seconds);
  if (missing <= 0 || left < 1) return 0;
  const rate = first.responses / Math.max(first.seconds, 0.001);
  const needed = rate > 0 ? Math.ceil(missing / rate) : left;
  return Math.min(left, Math.max(1, needed));
}
