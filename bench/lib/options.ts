import { Command, InvalidArgumentError } from 'commander';

export const SCENARIO_IDS = [
  'node-http',
  'nest',
  'a',
  'a401',
  'floor',
  'b',
  'c',
  'd',
  'e',
] as const;
export type ScenarioId = (typeof SCENARIO_IDS)[number];

export interface BenchOptions {
  smoke: boolean;
  rounds: number;
  /** Seconds per measured run. */
  duration: number;
  /** Seconds of warm-up before each measurement, at least. */
  warmup: number;
  /** A warm-up that got fewer responses goes on, up to `warmupMax` seconds in all (0: never). */
  warmupResponses: number;
  warmupMax: number;
  /** Seconds per balance page measurement (six of them per round). */
  pageDuration: number;
  soak: number;
  soakWarmup: number;
  ledgerRows: number;
  connections: number;
  pageConnections: number;
  payoutConnections: number;
  soakConnections: number;
  only: ScenarioId[];
  profile: boolean;
  /**
   * Run the soak under V8's sampling heap profiler. Off by default: the sampler makes V8 let the
   * old generation grow larger, so the soak's RSS would not be the production figure.
   */
  heapProfile: boolean;
  pin: boolean;
  pinDatabase: boolean;
  keep: boolean;
  /**
   * Node and V8 flags for both services (`--trace-gc`, `--log-maps`): diagnostics, whose output
   * goes to the services' logs (`--keep` keeps them). The report lists them, since most change
   * what they observe.
   */
  nodeFlags: string[];
  out: string;
  /** Only profile these measurements (ids as in the report: a, a401, b, c-random-100, d, e). */
  profileOnly?: string[];
}

/** A parser of whole numbers of at least `min`, for commander. */
const wholeNumber =
  (min: number) =>
  (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < min)
      throw new InvalidArgumentError(`must be a whole number of at least ${min}`);
    return Number(value);
  };
const positiveInt = wholeNumber(1);

const scenarioList = (value: string): ScenarioId[] => {
  const ids = value.split(',').map((item) => item.trim());
  const unknown = ids.filter((id) => !(SCENARIO_IDS as readonly string[]).includes(id));
  if (unknown.length)
    throw new InvalidArgumentError(
      `unknown scenario ${unknown.join(', ')}; known: ${SCENARIO_IDS.join(', ')}`,
    );
  return ids as ScenarioId[];
};

/** Measurements a profile can be taken of: the gateway's (the baselines have no targets). */
export const MEASUREMENT_IDS = [
  'a',
  'a401',
  'b',
  'c-first-20',
  'c-random-20',
  'c-last-20',
  'c-first-100',
  'c-random-100',
  'c-last-100',
  'd',
  'e',
];

const measurementList = (value: string): string[] => {
  const ids = value.split(',').map((item) => item.trim());
  const unknown = ids.filter((id) => !MEASUREMENT_IDS.includes(id));
  if (unknown.length)
    throw new InvalidArgumentError(
      `unknown measurement ${unknown.join(', ')}; known: ${MEASUREMENT_IDS.join(', ')}`,
    );
  return ids;
};

/**
 * `npm run bench -- [options]`. The full run's defaults fit the budget (under 10 minutes
 * including the 5-minute soak); `--smoke` shrinks everything to seconds for CI.
 */
export function parseOptions(argv: string[]): BenchOptions {
  const program = new Command('npm run bench --')
    .description(
      'Benchmarks of the payment gateway next to bare node:http and bare NestJS (docs/benchmarks.md)',
    )
    .option(
      '--smoke',
      'a few seconds per scenario, 10k ledger rows, 1 round, no targets: checks the harness still works',
    )
    .option('--rounds <n>', 'interleaved rounds per scenario', positiveInt)
    .option('--duration <seconds>', 'measured seconds per scenario', positiveInt)
    .option(
      '--warmup <seconds>',
      'warm-up seconds before each measurement (figures dropped)',
      positiveInt,
    )
    .option(
      '--warmup-responses <n>',
      'a warm-up that got fewer responses goes on, up to --warmup-max seconds (default 0: off)',
      wholeNumber(0),
    )
    .option(
      '--warmup-max <seconds>',
      'longest warm-up per measurement with --warmup-responses',
      positiveInt,
      30,
    )
    .option('--page-duration <seconds>', 'measured seconds per balance page in (c)', positiveInt)
    .option('--soak <seconds>', 'length of the soak (e)', positiveInt)
    .option('--ledger-rows <n>', 'balance changes of the merchant in (c)', positiveInt)
    .option('--connections <n>', "connections for the baselines, (a), (a'), (b)", positiveInt, 50)
    .option('--page-connections <n>', 'connections for the balance pages (c)', positiveInt, 10)
    .option('--payout-connections <n>', 'concurrent clients for the payouts (d)', positiveInt, 50)
    .option('--soak-connections <n>', 'connections for the soak (e)', positiveInt, 20)
    .option('--only <ids>', `comma-separated subset of ${SCENARIO_IDS.join(',')}`, scenarioList)
    .option('--no-profile', 'do not re-run missed targets under a CPU profile')
    .option(
      '--profile-only <ids>',
      `only profile these measurements (${MEASUREMENT_IDS.join(',')}): no rounds, no soak`,
      measurementList,
    )
    .option(
      '--heap-profile',
      "run the soak under V8's sampling heap profiler: names what the live heap was allocated by, but V8 then sizes the heap larger, so (e)'s RSS is not the production figure",
    )
    .option('--no-pin', 'do not pin processes to CPUs with taskset')
    .option(
      '--no-pin-database',
      "leave the embedded PostgreSQL unpinned instead of on the services' CPU",
    )
    .option(
      '--keep',
      'keep the database, logs and load specs of the run (paths printed at the end)',
    )
    .option(
      '--node-flags <flags>',
      'Node/V8 flags for both services, e.g. "--trace-gc" (output in their logs: add --keep)',
    )
    .option('--out <dir>', 'where reports go', 'bench/results')
    .allowExcessArguments(false);
  program.parse(argv, { from: 'user' });
  const raw = program.opts<{
    smoke?: boolean;
    rounds?: number;
    duration?: number;
    warmup?: number;
    warmupResponses?: number;
    warmupMax: number;
    pageDuration?: number;
    soak?: number;
    ledgerRows?: number;
    connections: number;
    pageConnections: number;
    payoutConnections: number;
    soakConnections: number;
    only?: ScenarioId[];
    profile: boolean;
    heapProfile?: boolean;
    pin: boolean;
    pinDatabase: boolean;
    keep?: boolean;
    nodeFlags?: string;
    out: string;
    profileOnly?: string[];
  }>();
  const smoke = Boolean(raw.smoke);
  return {
    smoke,
    rounds: raw.rounds ?? (smoke ? 1 : 3),
    duration: raw.duration ?? (smoke ? 2 : 4),
    warmup: raw.warmup ?? 1,
    // Off by default: lengthening (b)'s and (d)'s warm-ups costs the full run the profile of a
    // miss, which its 10-minute budget then has no room for (docs/benchmarks.md).
    warmupResponses: raw.warmupResponses ?? 0,
    warmupMax: Math.max(raw.warmupMax, raw.warmup ?? 1),
    pageDuration: raw.pageDuration ?? (smoke ? 1 : 3),
    soak: raw.soak ?? (smoke ? 3 : 300),
    soakWarmup: smoke ? 1 : 10,
    ledgerRows: raw.ledgerRows ?? (smoke ? 10_000 : 1_000_000),
    connections: raw.connections,
    pageConnections: raw.pageConnections,
    payoutConnections: raw.payoutConnections,
    soakConnections: raw.soakConnections,
    only: raw.only ?? [...SCENARIO_IDS],
    // Smoke runs have no thresholds, so nothing is "missed" and nothing is profiled.
    profile: raw.profile && !smoke,
    heapProfile: Boolean(raw.heapProfile),
    pin: raw.pin,
    pinDatabase: raw.pinDatabase,
    keep: Boolean(raw.keep),
    nodeFlags: raw.nodeFlags?.split(/\s+/).filter(Boolean) ?? [],
    out: raw.out,
    profileOnly: raw.profileOnly,
  };
}
