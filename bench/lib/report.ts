import type { DbActivity } from './db-activity';
import type { LedgerCheck } from './ledger-check';
import type { ProfileSummary } from './profile';
import type { Spread } from './stats';
import type { TargetResult } from './targets';

/** One measurement summarised over its rounds. */
export interface MeasurementSummary {
  id: string;
  label: string;
  connections: number;
  expectedStatus: number;
  rounds: number;
  requestsPerSecond: Spread;
  p50Ms: Spread;
  p99Ms: Spread;
  p999Ms: Spread;
  /** Totals over all rounds. */
  non2xx: number;
  errors: number;
  /** Responses with another status than the expected one. */
  unexpected: number;
  /** Median RSS of each service right after the measured run, MiB. */
  rssMb: Record<string, number>;
  bytesPerResponse: number;
  sampleErrors: string[];
  /** Most CPU other processes of the machine took during any round (1 = a whole CPU). */
  otherCpu: number;
  /** Most CPU the load generator used in any round: near 1 it, not the server, set the pace. */
  loadGeneratorCpu: number;
}

export interface SoakSummary {
  durationSeconds: number;
  connections: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  non2xx: number;
  errors: number;
  steps: Record<string, Record<string, number>>;
  rssStartMb: Record<string, number>;
  rssEndMb: Record<string, number>;
  rssPeakMb: Record<string, number>;
  /** [seconds since start, MiB per service] every sampling interval. */
  rssTrace: Array<{ atSeconds: number; rssMb: Record<string, number> }>;
  ledger?: LedgerCheck;
  sampleErrors: string[];
  otherCpu: number;
  loadGeneratorCpu: number;
  /** Live allocations at the end of the soak, by allocation site, per service. */
  heap?: ServiceProfile[];
}

/** One service's profile, summarised; heap profiles carry `process.memoryUsage()` at both ends. */
export interface ServiceProfile {
  service: string;
  file: string;
  summary?: ProfileSummary;
  error?: string;
  memoryAtStart?: NodeJS.MemoryUsage;
  memoryAtEnd?: NodeJS.MemoryUsage;
}

export interface ProfileReport {
  measurement: string;
  label: string;
  /** One CPU profile per service. */
  services: ServiceProfile[];
  /** What the services' database connections did meanwhile. */
  db?: DbActivity;
  /** CPU each process used during the profiled window, in CPUs (1 = a whole CPU). */
  cpu?: Record<string, number>;
  /** Why there is no profile (the per-run cap). */
  skipped?: string;
}

export interface RunReport {
  /** full: the benchmark; smoke: seconds, no targets; profile: `--profile-only`. */
  mode: 'full' | 'smoke' | 'profile';
  startedAt: string;
  elapsedSeconds: number;
  commit: string;
  dirty: boolean;
  environment: Record<string, string>;
  settings: Record<string, string | number>;
  measurements: MeasurementSummary[];
  soak?: SoakSummary;
  targets?: TargetResult[];
  profiles: ProfileReport[];
  finalLedger?: LedgerCheck;
  errors: string[];
}

const BASELINE = 'nest';
const RAW_BASELINE = 'node-http';

const int = (value: number): string =>
  Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '—';
/** Latency with a precision that suits its size: 0.412, 3.41, 12.3, 104. */
export const latency = (value: number): string =>
  !Number.isFinite(value)
    ? '—'
    : value < 1
      ? value.toFixed(3)
      : value < 10
        ? value.toFixed(2)
        : value < 100
          ? value.toFixed(1)
          : value.toFixed(0);
const range = (spread: Spread, format: (value: number) => string): string =>
  spread.min === spread.max
    ? format(spread.median)
    : `${format(spread.median)} (${format(spread.min)}–${format(spread.max)})`;
const ratio = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(2)}×` : '—');
const mb = (value: number): string => (Number.isFinite(value) ? value.toFixed(0) : '—');

/** The headline table: one row per measurement, figures as medians over rounds with min–max. */
export function headlineRows(report: RunReport): string[][] {
  const byId = new Map(report.measurements.map((m) => [m.id, m]));
  const nest = byId.get(BASELINE);
  const raw = byId.get(RAW_BASELINE);
  const header = [
    'Scenario',
    'conns',
    'req/s median (min–max)',
    'p50 ms',
    'p99 ms (min–max)',
    'p99.9 ms',
    'non-2xx',
    'errors',
    'RSS MiB',
    'req/s vs NestJS',
    'req/s vs node:http',
    'p99 vs NestJS',
    'other CPU',
    'load gen CPU',
  ];
  const rows = report.measurements.map((m) => [
    m.label + (m.expectedStatus !== 200 ? ` (expects ${m.expectedStatus})` : ''),
    String(m.connections),
    m.rounds ? range(m.requestsPerSecond, int) : 'failed',
    latency(m.p50Ms.median),
    m.rounds ? range(m.p99Ms, latency) : '—',
    latency(m.p999Ms.median),
    m.expectedStatus === 200 ? int(m.non2xx) : `${int(m.non2xx)} (${int(m.unexpected)} unexpected)`,
    int(m.errors),
    Object.entries(m.rssMb)
      .map(([service, value]) => `${service} ${mb(value)}`)
      .join(', ') || '—',
    nest && m.id !== BASELINE
      ? ratio(m.requestsPerSecond.median / nest.requestsPerSecond.median)
      : '—',
    raw && m.id !== RAW_BASELINE
      ? ratio(m.requestsPerSecond.median / raw.requestsPerSecond.median)
      : '—',
    nest && m.id !== BASELINE ? ratio(m.p99Ms.median / nest.p99Ms.median) : '—',
    m.rounds ? m.otherCpu.toFixed(2) : '—',
    m.rounds ? m.loadGeneratorCpu.toFixed(2) : '—',
  ]);
  if (report.soak) {
    const s = report.soak;
    rows.push([
      `(e) soak, mixed traffic, ${Math.round(s.durationSeconds)} s`,
      String(s.connections),
      int(s.requestsPerSecond),
      latency(s.p50Ms),
      latency(s.p99Ms),
      latency(s.p999Ms),
      int(s.non2xx),
      int(s.errors),
      Object.keys(s.rssStartMb)
        .map((service) => `${service} ${mb(s.rssStartMb[service])}→${mb(s.rssEndMb[service])}`)
        .join(', '),
      '—',
      '—',
      '—',
      s.otherCpu.toFixed(2),
      s.loadGeneratorCpu.toFixed(2),
    ]);
  }
  return [header, ...rows];
}

export function targetRows(targets: TargetResult[]): string[][] {
  return [
    ['Target', 'wanted', 'measured', 'result'],
    ...targets.map((t) => [
      t.scenario,
      t.target,
      t.measured,
      t.pass === undefined ? 'not measured' : t.pass ? 'PASS' : 'MISS',
    ]),
  ];
}

/** A fixed-width table for the terminal. */
export function textTable(rows: string[][]): string {
  const widths = rows[0].map((_, column) =>
    Math.max(...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (row: string[]): string =>
    row
      .map((cell, column) => (cell ?? '').padEnd(widths[column]))
      .join('  ')
      .trimEnd();
  return [
    line(rows[0]),
    widths.map((width) => '-'.repeat(width)).join('  '),
    ...rows.slice(1).map(line),
  ].join('\n');
}

export function markdownTable(rows: string[][]): string {
  const escape = (cell: string): string => cell.replace(/\|/g, '\\|');
  const line = (row: string[]): string => `| ${row.map(escape).join(' | ')} |`;
  return [line(rows[0]), line(rows[0].map(() => '---')), ...rows.slice(1).map(line)].join('\n');
}

export function renderMarkdown(report: RunReport): string {
  const out: string[] = [];
  out.push(
    `# Benchmark ${report.startedAt.slice(0, 10)} at ${report.commit}${report.dirty ? ' (uncommitted changes)' : ''}`,
  );
  out.push('');
  out.push(
    `\`npm run bench${report.mode === 'smoke' ? ' -- --smoke' : report.mode === 'profile' ? ' -- --profile-only …' : ''}\`, ${report.settings.rounds} interleaved round(s), ${Math.round(report.elapsedSeconds)} s in all. ` +
      'Figures are medians over rounds with (min–max); latencies are per response, in milliseconds. ' +
      '`other CPU` is the most CPU (1 = a whole CPU) other processes on the machine took during a round: above about 0.1 that row was disturbed. ' +
      '`load gen CPU` near 1 means the load generator, not the server, set the pace. ' +
      'Method and how to read this: [docs/benchmarks.md](../../docs/benchmarks.md).',
  );
  out.push('');
  out.push('## Results');
  out.push('');
  out.push(markdownTable(headlineRows(report)));
  out.push('');
  if (report.targets) {
    out.push('## Targets (issue #7)');
    out.push('');
    out.push(markdownTable(targetRows(report.targets)));
    out.push('');
  } else {
    out.push(
      report.mode === 'profile'
        ? 'Profile run: no measurements, no targets.'
        : 'Smoke run: targets are not evaluated.',
    );
    out.push('');
  }
  if (report.errors.length) {
    out.push('## Errors');
    out.push('');
    for (const error of report.errors) out.push(`- ${error.replace(/\n/g, '\n  ')}`);
    out.push('');
  }
  const withSamples = report.measurements.filter(
    (m) => m.sampleErrors.length && m.unexpected + m.errors > 0,
  );
  if (withSamples.length || report.soak?.sampleErrors.length) {
    out.push('## Unexpected responses (first bodies)');
    out.push('');
    for (const m of withSamples)
      out.push(`- ${m.label}: ${m.sampleErrors.map((s) => `\`${s}\``).join('; ')}`);
    if (report.soak?.sampleErrors.length)
      out.push(`- (e) soak: ${report.soak.sampleErrors.map((s) => `\`${s}\``).join('; ')}`);
    out.push('');
  }
  if (report.soak) out.push(...renderSoak(report.soak));
  if (report.profiles.length) out.push(...renderProfiles(report.profiles));
  if (report.finalLedger) {
    const l = report.finalLedger;
    out.push('## Ledger after the run');
    out.push('');
    out.push(
      `${int(l.rows)} balance changes checked in SQL (chain, arithmetic, sequence, counter, balance = sum, one debit per payout): ` +
        (l.violations === 0
          ? '**0 violations**.'
          : `**${l.violations} violations** (${JSON.stringify(l)}).`),
    );
    out.push('');
  }
  out.push('## Environment');
  out.push('');
  for (const [key, value] of Object.entries(report.environment)) out.push(`- ${key}: ${value}`);
  out.push('');
  out.push('## Settings');
  out.push('');
  for (const [key, value] of Object.entries(report.settings)) out.push(`- ${key}: ${value}`);
  out.push('');
  return out.join('\n');
}

function renderSoak(soak: SoakSummary): string[] {
  const out = ['## (e) Soak', ''];
  out.push(
    `${Math.round(soak.durationSeconds)} s of mixed traffic at ${soak.connections} connections: ${int(soak.requestsPerSecond)} req/s, ` +
      `p99 ${latency(soak.p99Ms)} ms, ${int(soak.non2xx)} non-2xx, ${int(soak.errors)} errors.`,
  );
  out.push('');
  out.push(
    markdownTable([
      ['Step', 'responses by status'],
      ...Object.entries(soak.steps).map(([step, statuses]) => [
        step,
        Object.entries(statuses)
          .map(([status, count]) => `${status}: ${int(count)}`)
          .join(', '),
      ]),
    ]),
  );
  out.push('');
  const services = Object.keys(soak.rssStartMb);
  out.push(
    markdownTable([
      ['Service', 'RSS start MiB', 'RSS end MiB', 'peak MiB', 'growth'],
      ...services.map((service) => {
        const growth = soak.rssEndMb[service] / soak.rssStartMb[service] - 1;
        return [
          service,
          mb(soak.rssStartMb[service]),
          mb(soak.rssEndMb[service]),
          mb(soak.rssPeakMb[service]),
          `${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)}%`,
        ];
      }),
    ]),
  );
  out.push('');
  if (soak.rssTrace.length > 2) {
    out.push(
      `RSS over time (s: ${services.join(' / ')} MiB): ` +
        soak.rssTrace
          .map(
            (point) =>
              `${Math.round(point.atSeconds)}: ${services.map((service) => mb(point.rssMb[service])).join('/')}`,
          )
          .join(' · '),
    );
    out.push('');
  }
  if (soak.ledger) {
    out.push(
      `Ledger of the soak's merchant after it: ${soak.ledger.violations} invariant violations over ${int(soak.ledger.rows)} changes.`,
    );
    out.push('');
  }
  for (const entry of soak.heap ?? []) out.push(...renderHeap(entry));
  return out;
}

function renderProfiles(profiles: ProfileReport[]): string[] {
  const out = ['## CPU profiles of missed targets', ''];
  out.push(
    "Each missed target's scenario was run once more with both services under a V8 CPU profile (sampling every 200 µs, " +
      "measured window only), while the services' PostgreSQL connections were sampled ten times a second. " +
      "CPU shares are of the process's busy (non-idle) time. The `.cpuprofile.json` files load in Chrome DevTools or speedscope. " +
      'A process that waits for the CPU inside a system call is sampled in that call: where the services and PostgreSQL share a CPU, ' +
      'as in (b) and (d), the shares of `writev` and the like are mostly that wait, and `CPU used during the window` is what each ' +
      'process really used (docs/benchmarks.md).',
  );
  out.push('');
  for (const profile of profiles) {
    out.push(`### ${profile.label}`);
    out.push('');
    if (profile.skipped) {
      out.push(profile.skipped);
      out.push('');
      continue;
    }
    if (profile.cpu) {
      out.push(
        `CPU used during the window, in CPUs: ${Object.entries(profile.cpu)
          .map(([name, value]) => `${name} ${value.toFixed(2)}`)
          .join(', ')}.`,
      );
      out.push('');
    }
    for (const entry of profile.services) {
      out.push(`#### ${entry.service}`);
      out.push('');
      if (!entry.summary) {
        out.push(`Not captured: ${entry.error ?? 'unknown error'}`);
        out.push('');
        continue;
      }
      const s = entry.summary;
      out.push(
        `File \`${entry.file}\`; busy ${int(s.total)} ms, idle ${(s.idleShare * 100).toFixed(0)}% of the window.`,
      );
      out.push('');
      out.push(
        markdownTable([
          ['function (self time)', 'share'],
          ...s.topSelf.map((e) => [`\`${e.name}\``, share(e.share)]),
        ]),
      );
      out.push('');
      out.push(`By package: ${s.byPackage.map((e) => `${e.name} ${share(e.share)}`).join(', ')}.`);
      out.push('');
      if (s.topOwnInclusive.length) {
        out.push(
          `Our code by inclusive time: ${s.topOwnInclusive.map((e) => `\`${e.name}\` ${share(e.share)}`).join(', ')}.`,
        );
        out.push('');
      }
    }
    if (profile.db) out.push(...renderDbActivity(profile.db));
  }
  return out;
}

const MIB = 1024 * 1024;
const mib = (bytes: number | undefined): string =>
  bytes === undefined ? '—' : (bytes / MIB).toFixed(1);

/**
 * A service's memory after a full GC at the soak's start and end, and (with
 * `--heap-profile`) what the live heap at the end was allocated by.
 */
function renderHeap(entry: ServiceProfile): string[] {
  const out = [`### Heap of ${entry.service} over the soak`, ''];
  if (entry.error) return [...out, `Not captured: ${entry.error}`, ''];
  const start = entry.memoryAtStart;
  const end = entry.memoryAtEnd;
  if (start && end) {
    out.push(
      markdownTable([
        ['MiB', 'rss', 'heap used', 'heap total', 'external', 'array buffers'],
        [
          'start (after a full GC)',
          mib(start.rss),
          mib(start.heapUsed),
          mib(start.heapTotal),
          mib(start.external),
          mib(start.arrayBuffers),
        ],
        [
          'end (after a full GC)',
          mib(end.rss),
          mib(end.heapUsed),
          mib(end.heapTotal),
          mib(end.external),
          mib(end.arrayBuffers),
        ],
      ]),
    );
    out.push('');
    const live = end.heapUsed / start.heapUsed - 1;
    out.push(
      `Live JS heap (after a full GC) ${live >= 0 ? 'grew' : 'shrank'} ${Math.abs(live * 100).toFixed(0)}% over the soak: ` +
        (live < 0.1
          ? 'no sign of a leak in the JS heap; RSS growth is the heap being sized up and not returned, or native memory.'
          : entry.summary
            ? 'retained objects accumulate; the allocation sites below hold them.'
            : 'retained objects accumulate; `--heap-profile` names what allocated them.'),
    );
    out.push('');
  }
  const s = entry.summary;
  if (!s) {
    out.push(
      'Allocation sites not sampled: the soak ran without the heap sampler, which makes V8 size the heap larger (`--heap-profile` turns it on).',
    );
    out.push('');
    return out;
  }
  out.push(
    `File \`${entry.file}\`: ${mib(s.total)} MiB of sampled allocations still alive at the end, by the function that allocated them:`,
  );
  out.push('');
  out.push(
    markdownTable([
      ['allocation site', 'MiB', 'share'],
      ...s.topSelf.slice(0, 8).map((e) => [`\`${e.name}\``, mib(e.amount), share(e.share)]),
    ]),
  );
  out.push('');
  out.push(`By package: ${s.byPackage.map((e) => `${e.name} ${share(e.share)}`).join(', ')}.`);
  out.push('');
  if (s.topOwnInclusive.length) {
    out.push(
      `Our code holding it (inclusive): ${s.topOwnInclusive.map((e) => `\`${e.name}\` ${share(e.share)}`).join(', ')}.`,
    );
    out.push('');
  }
  return out;
}

function renderDbActivity(db: DbActivity): string[] {
  const out = ['#### PostgreSQL connections of the services', ''];
  out.push(
    `${db.samples} samples, ${int(db.commitsPerSecond)} commits/s. Share of each pool's connections by state:`,
  );
  out.push('');
  out.push(
    markdownTable([
      ['pool', 'state', 'share'],
      ...db.states.map((row) => [row.application, row.state, share(row.share)]),
    ]),
  );
  out.push('');
  out.push(
    db.sequentialScans.length
      ? `Sequential scans: ${db.sequentialScans.map((row) => `${row.table} ${int(row.scans)} scans, ${int(row.rowsRead)} rows`).join('; ')}.`
      : 'No sequential scans of our tables.',
  );
  out.push('');
  return out;
}

const share = (value: number): string => `${(value * 100).toFixed(1)}%`;
