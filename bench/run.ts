import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, release, tmpdir, totalmem, type } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { redactUrl } from '@app/config';
import { freePort } from '@app/database';
import type { LoadResult, LoadSpec } from './load/load-spec';
import { copyRuntimeAssets } from './lib/assets';
import { PROFILE_SIGNAL } from './hooks/profile-signal';
import { BenchDatabase, freshDatabase } from './lib/database';
import { CpuMeter, Interference, interference, snapshot } from './lib/cpu-usage';
import { DbActivity, DbActivitySampler } from './lib/db-activity';
import { checkLedger, LedgerCheck } from './lib/ledger-check';
import { BenchOptions, parseOptions } from './lib/options';
import { detectPlacement, pin, Placement } from './lib/placement';
import { runChild, ServerProcess, sleep } from './lib/processes';
import {
  CpuProfile,
  HeapProfile,
  ProfileSummary,
  summariseHeapProfile,
  summariseProfile,
} from './lib/profile';
import {
  headlineRows,
  latency,
  MeasurementSummary,
  ProfileReport,
  ServiceProfile,
  renderMarkdown,
  RunReport,
  SoakSummary,
  targetRows,
  textTable,
} from './lib/report';
import {
  MeasurementDef,
  ScenarioDef,
  SCENARIOS,
  SOAK_MEASUREMENT,
  SystemKind,
  rotatedForRound,
} from './lib/scenarios';
import { Fixtures, seedFixtures } from './lib/seed';
import { spread } from './lib/stats';
import { evaluateTargets, MeasurementFigures, TargetResult } from './lib/targets';

/**
 * `npm run bench`: the whole benchmark of issue #7. Compiled by the npm script into
 * node_modules/.cache/payment-gateway-bench (never dist/), then:
 * a fresh database and migrations, fixtures through the admin and merchant APIs (bulk ledger
 * rows by SQL), interleaved rounds of every scenario on fresh processes, the soak, CPU profiles
 * of missed targets, and a report printed and written to bench/results/.
 */
const BUILD_ROOT = resolve(__dirname, '..');
const REPO_ROOT = resolve(BUILD_ROOT, '../../..');
const built = (path: string): string => join(BUILD_ROOT, path);
const GATEWAY_SERVICES = ['merchant-api', 'core'] as const;
const MAX_PROFILES = 5;
/** The harness's share of the issue's 10 minutes: the rest is compilation and teardown. */
const RUN_BUDGET_MS = 570_000;

/** Profile files of the gateway's services, by service name. */
interface ProfileFiles {
  cpu?: Record<string, string>;
  /** Memory after a full GC at both signals; with `heapSampling`, V8's sampling heap profile too. */
  heap?: Record<string, string>;
  heapSampling?: boolean;
}

interface RoundResult {
  round: number;
  load: LoadResult;
  rssMb: Record<string, number>;
  interference: Interference;
  ledger?: LedgerCheck;
}

/** Processes answering one scenario; stopped (fresh ones next time) when it is done. */
interface RunningSystem {
  url: string;
  processes: ServerProcess[];
  rss(): Record<string, number>;
  /** A message if a process died, else undefined. */
  dead(): string | undefined;
  stop(): Promise<void>;
}

class Bench {
  private readonly startedAt = new Date();
  private readonly started = Date.now();
  private readonly runTag = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  private readonly results = new Map<string, RoundResult[]>();
  private readonly errors: string[] = [];
  private readonly running = new Set<ServerProcess>();
  private readonly secrets = {
    ADMIN_TOKEN: `adm_${randomBytes(24).toString('base64url')}`,
    CORE_SERVICE_TOKEN: `svc_${randomBytes(24).toString('base64url')}`,
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    FILE_URL_KEY: randomBytes(32).toString('base64url'),
  };
  private db?: BenchDatabase;
  private readonly mode: RunReport['mode'];
  private fixtures?: Fixtures;
  private soakSummary?: SoakSummary;
  private loadRuns = 0;
  private systemStarts = 0;
  private skipped = new Set<string>();

  constructor(
    private readonly options: BenchOptions,
    private readonly placement: Placement,
    private readonly runDir: string,
  ) {
    this.mode = options.smoke ? 'smoke' : options.profileOnly ? 'profile' : 'full';
  }

  say(line: string): void {
    const seconds = Math.floor((Date.now() - this.started) / 1000);
    const clock = `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
    process.stdout.write(`[bench ${clock}] ${line}\n`);
  }

  async run(): Promise<number> {
    const o = this.options;
    this.say(
      `${o.smoke ? 'smoke run' : 'full run'}: ${o.rounds} round(s), ${o.duration} s per measurement after a ${warmupLabel(o)}; ${this.placement.description}`,
    );
    const scenarios = SCENARIOS.filter((scenario) => o.only.includes(scenario.id));
    const needsGateway =
      scenarios.some((scenario) => usesRunDatabase(scenario.system)) || o.only.includes('e');
    if (needsGateway) await this.prepareGateway();

    let profiles: ProfileReport[] = [];
    if (o.profileOnly) {
      if (this.fixtures) profiles = await this.profileEach(o.profileOnly);
    } else {
      for (let round = 1; round <= o.rounds; round++) {
        for (const scenario of scenarios) await this.runScenario(scenario, round);
      }
      // Misses of (a) to (d) are profiled before the soak, within the time the soak leaves over.
      if (!o.smoke && o.profile)
        profiles = await this.profileMisses(
          evaluateTargets(this.figures(this.summarise(scenarios))),
        );
      if (o.only.includes('e')) await this.runSoak();
    }

    const measurements = this.summarise(scenarios);
    const targets =
      o.smoke || o.profileOnly ? undefined : evaluateTargets(this.figures(measurements));
    let finalLedger: LedgerCheck | undefined;
    if (this.db && this.fixtures) {
      this.say('ledger invariants over the whole database');
      finalLedger = await checkLedger(this.db.url);
      if (finalLedger.violations > 0)
        this.errors.push(
          `ledger invariants: ${finalLedger.violations} violations after the run: ${JSON.stringify(finalLedger)}`,
        );
    }

    const report: RunReport = {
      mode: this.mode,
      startedAt: this.startedAt.toISOString(),
      elapsedSeconds: (Date.now() - this.started) / 1000,
      ...gitState(),
      environment: this.environment(),
      settings: this.settings(),
      measurements,
      soak: this.soakSummary,
      targets,
      profiles,
      finalLedger,
      errors: this.errors,
    };
    this.publish(report);
    return this.errors.length ? 1 : 0;
  }

  /** Fresh database, migrations, then fixtures created through the running gateway. */
  private async prepareGateway(): Promise<void> {
    this.say('database: starting a fresh one and applying migrations');
    this.db = await freshDatabase({ keep: this.options.keep, log: (line) => this.say(line) });
    this.say('seed: starting the gateway for fixtures');
    let system: RunningSystem | undefined;
    try {
      system = await this.startSystem('gateway');
      const core = system.processes.find((p) => p.name === 'core')!;
      this.fixtures = await seedFixtures({
        coreUrl: core.url,
        apiUrl: system.url,
        adminToken: this.secrets.ADMIN_TOKEN,
        databaseUrl: this.db.url,
        ledgerRows: this.options.ledgerRows,
        soakLedgerRows: Math.max(1_000, Math.round(this.options.ledgerRows / 10)),
        log: (line) => this.say(`seed: ${line}`),
      });
      this.say(
        `seed: done (payin ${this.fixtures.read.payinId}, ledger merchant ${this.fixtures.ledger.merchantId} with ${this.fixtures.ledger.rows.toLocaleString('en-US')} changes)`,
      );
    } catch (error) {
      this.fail('seed', error);
    } finally {
      await system?.stop();
    }
    // Pinned only now: seeding may use both CPUs; from here on the database shares the services' CPU.
    if (this.placement.dbCpus) {
      const pids = this.db.pids();
      if (pids.length && pin(pids, this.placement.dbCpus))
        this.say(
          `database: pinned ${pids.length} PostgreSQL processes to CPU ${this.placement.dbCpus}`,
        );
    }
  }

  private async runScenario(scenario: ScenarioDef, round: number): Promise<void> {
    if (usesRunDatabase(scenario.system) && !this.fixtures) {
      if (!this.skipped.has(scenario.id))
        this.errors.push(
          `${scenario.measurements[0].label}: skipped, the gateway could not be seeded`,
        );
      this.skipped.add(scenario.id);
      return;
    }
    let system: RunningSystem | undefined;
    try {
      system = await this.startSystem(scenario.system);
      let last: RoundResult | undefined;
      for (const def of rotatedForRound(scenario.measurements, round, this.options.rounds)) {
        const connections = def.connections(this.options);
        const duration = def.duration(this.options);
        this.say(
          `round ${round}/${this.options.rounds} · ${def.label} · ${connections} connections, ${warmupLabel(this.options)} + ${duration} s`,
        );
        const load = await this.runLoad(
          system.url,
          def,
          `${this.runTag}-${def.id}-r${round}`,
          this.options.warmup,
          duration,
          system,
        );
        const dead = system.dead();
        if (dead) throw new Error(dead);
        last = { round, load: load.result, rssMb: system.rss(), interference: load.interference };
        (this.results.get(def.id) ?? this.results.set(def.id, []).get(def.id)!).push(last);
        this.say(`  → ${describeLoad(load.result, def.expectedStatus, load.interference)}`);
        const statuses = load.result.statuses;
        if (!statuses[def.expectedStatus])
          this.errors.push(
            `${def.label}, round ${round}: no ${def.expectedStatus} responses at all (${JSON.stringify(statuses)}; ${load.result.sampleErrors[0] ?? ''})`,
          );
      }
      if (scenario.ledgerOf && last && this.db && this.fixtures) {
        last.ledger = await checkLedger(this.db.url, scenario.ledgerOf(this.fixtures));
        this.say(
          `  ledger check: ${last.ledger.violations} violations over ${last.ledger.rows.toLocaleString('en-US')} changes`,
        );
        if (last.ledger.violations)
          this.errors.push(
            `${scenario.measurements[0].label}, round ${round}: ${last.ledger.violations} ledger invariant violations ${JSON.stringify(last.ledger)}`,
          );
      }
    } catch (error) {
      this.fail(`${scenario.measurements[0].label}, round ${round}`, error);
    } finally {
      await system?.stop();
    }
  }

  /** (e): warm up, note RSS, run mixed traffic for the soak's length sampling RSS, note RSS again. */
  private async runSoak(): Promise<void> {
    if (!this.fixtures) {
      this.errors.push('(e) soak: skipped, the gateway could not be seeded');
      return;
    }
    const o = this.options;
    let system: RunningSystem | undefined;
    // Each service's live heap (after a full GC) is read right after the start RSS and right after
    // the end RSS. The heap sampler only runs with --heap-profile: it makes V8 size the old
    // generation larger, so the RSS it would accompany is not the production figure.
    const heapFiles = this.outFiles('e', 'heapprofile');
    let heap: SoakSummary['heap'];
    try {
      system = await this.startSystem('gateway', { heap: heapFiles, heapSampling: o.heapProfile });
      this.say(
        `soak: ${o.soakWarmup} s warm-up${o.heapProfile ? ' (heap sampler on: RSS is not the production figure)' : ''}`,
      );
      await this.runLoad(system.url, SOAK_MEASUREMENT, `${this.runTag}-e-warm`, 0, o.soakWarmup);
      const rssStart = system.rss();
      for (const process of system.processes) process.signal(PROFILE_SIGNAL);
      const trace: SoakSummary['rssTrace'] = [{ atSeconds: 0, rssMb: rssStart }];
      const peak = { ...rssStart };
      this.say(
        `soak: ${o.soak} s of mixed traffic at ${o.soakConnections} connections; RSS at start ${formatRss(rssStart)}`,
      );
      const began = Date.now();
      const every = Math.max(1, Math.round(o.soak / 20)) * 1000;
      const sampler = setInterval(() => {
        const rss = system!.rss();
        for (const [service, value] of Object.entries(rss))
          peak[service] = Math.max(peak[service] ?? 0, value);
        trace.push({ atSeconds: (Date.now() - began) / 1000, rssMb: rss });
        if (!o.smoke && trace.length % 4 === 0)
          this.say(`soak: ${Math.round((Date.now() - began) / 1000)} s, RSS ${formatRss(rss)}`);
      }, every);
      let measured: { result: LoadResult; interference: Interference };
      try {
        measured = await this.runLoad(
          system.url,
          SOAK_MEASUREMENT,
          `${this.runTag}-e`,
          0,
          o.soak,
          system,
        );
      } finally {
        clearInterval(sampler);
      }
      const load = measured.result;
      const dead = system.dead();
      if (dead) throw new Error(dead);
      const rssEnd = system.rss();
      for (const process of system.processes) process.signal(PROFILE_SIGNAL);
      heap = await this.collectProfiles(heapFiles, (text) => {
        const profile = JSON.parse(text) as Partial<HeapProfile>;
        return profile.head ? summariseHeapProfile(profile as HeapProfile) : undefined;
      });
      trace.push({ atSeconds: (Date.now() - began) / 1000, rssMb: rssEnd });
      for (const [service, value] of Object.entries(rssEnd))
        peak[service] = Math.max(peak[service] ?? 0, value);
      const ledger = this.db
        ? await checkLedger(this.db.url, this.fixtures.soak.merchantId)
        : undefined;
      this.soakSummary = {
        durationSeconds: load.durationSeconds,
        connections: o.soakConnections,
        requestsPerSecond: load.requestsPerSecond,
        p50Ms: load.latencyMs.p50,
        p99Ms: load.latencyMs.p99,
        p999Ms: load.latencyMs.p999,
        non2xx: load.non2xx,
        errors: load.errors,
        steps: load.steps ?? {},
        rssStartMb: rssStart,
        rssEndMb: rssEnd,
        rssPeakMb: peak,
        rssTrace: trace,
        ledger,
        sampleErrors: load.sampleErrors,
        otherCpu: measured.interference.otherCpu,
        loadGeneratorCpu: load.ownCpu,
        heap,
      };
      this.say(
        `soak: → ${describeLoad(load, 200, measured.interference)}; RSS ${formatRss(rssStart)} → ${formatRss(rssEnd)}`,
      );
      if (!load.statuses['200'])
        this.errors.push(`(e) soak: no 200 responses at all (${load.sampleErrors[0] ?? ''})`);
      if (ledger?.violations)
        this.errors.push(
          `(e) soak: ${ledger.violations} ledger invariant violations ${JSON.stringify(ledger)}`,
        );
    } catch (error) {
      this.fail('(e) soak', error);
    } finally {
      await system?.stop();
    }
  }

  /**
   * Each missed target's measurement once more, with both gateway services under a CPU profile
   * for the measured window. The balance pages get one profile: the slowest missed page.
   */
  private async profileMisses(targets: TargetResult[]): Promise<ProfileReport[]> {
    const missed = new Set(
      targets.filter((target) => target.pass === false).flatMap((target) => target.profile),
    );
    const pages = [...missed].filter((id) => id.startsWith('c-'));
    if (pages.length > 1) {
      const slowest = pages.sort((x, y) => this.medianP99(y) - this.medianP99(x))[0];
      for (const id of pages) if (id !== slowest) missed.delete(id);
    }
    // (e) is not re-run: its evidence is the live heap read at both ends (and, with --heap-profile,
    // the allocation sites), and a second 5-minute soak does not fit the run's budget.
    const defs = SCENARIOS.flatMap((scenario) => scenario.measurements).filter((def) =>
      missed.has(def.id),
    );
    const reserve = this.options.only.includes('e')
      ? (this.options.soak + this.options.soakWarmup + 25) * 1000
      : 0;
    const reports: ProfileReport[] = [];
    // Each profile costs a gateway start and a measurement: at most MAX_PROFILES, and only while
    // the run, soak included, stays within its budget (the issue's 10 minutes, compilation included).
    for (const def of defs) {
      const cost = (this.options.warmup + def.duration(this.options) + 8) * 1000;
      const skipped =
        reports.filter((report) => !report.skipped).length >= MAX_PROFILES
          ? `not profiled: at most ${MAX_PROFILES} profiles per run; \`npm run bench -- --profile-only ${def.id}\` profiles it`
          : Date.now() - this.started + cost + reserve > RUN_BUDGET_MS
            ? `not profiled: the run's 10-minute budget was spent; \`npm run bench -- --profile-only ${def.id}\` profiles it`
            : undefined;
      reports.push(
        skipped
          ? { measurement: def.id, label: def.label, services: [], skipped }
          : await this.profile(def),
      );
    }
    return reports;
  }

  /** `--profile-only`: the named measurements under the profiler, nothing else. */
  private async profileEach(ids: string[]): Promise<ProfileReport[]> {
    const defs = [...SCENARIOS.flatMap((scenario) => scenario.measurements), SOAK_MEASUREMENT];
    const reports: ProfileReport[] = [];
    for (const id of ids) {
      const def = defs.find((candidate) => candidate.id === id);
      if (def) reports.push(await this.profile(def));
    }
    return reports;
  }

  private medianP99(id: string): number {
    return spread((this.results.get(id) ?? []).map((r) => r.load.latencyMs.p99)).median;
  }

  private async profile(def: MeasurementDef): Promise<ProfileReport> {
    const files = this.outFiles(def.id, 'cpuprofile');
    const duration = def.duration(this.options);
    this.say(
      `profile: ${def.label} · ${this.options.warmup} s warm-up + ${duration} s under the CPU profiler`,
    );
    let system: RunningSystem | undefined;
    let db: DbActivity | undefined;
    let cpu: Record<string, number> | undefined;
    let services: ProfileReport['services'] = [];
    try {
      system = await this.startSystem('gateway', { cpu: files });
      await this.runLoad(
        system.url,
        def,
        `${this.runTag}-${def.id}-profile-warm`,
        0,
        this.options.warmup,
      );
      for (const process of system.processes) process.signal(PROFILE_SIGNAL);
      await sleep(300);
      const sampler = await DbActivitySampler.start(this.db!.url);
      const running = system;
      // The load generator is counted through the harness's reaped children (its own process group here).
      const meter = new CpuMeter(() => ({
        ...Object.fromEntries(running.processes.map((p) => [p.name, [p.pid]])),
        PostgreSQL: this.db!.pids(),
        'load generator (and harness)': [process.pid],
      }));
      try {
        await this.runLoad(system.url, def, `${this.runTag}-${def.id}-profile`, 0, duration);
      } finally {
        db = await sampler.stop();
        cpu = meter.stop();
      }
      for (const process of system.processes) process.signal(PROFILE_SIGNAL);
      services = await this.collectProfiles(files, (text) =>
        summariseProfile(JSON.parse(text) as CpuProfile),
      );
    } catch (error) {
      this.fail(`profile of ${def.label}`, error);
    } finally {
      await system?.stop();
    }
    return { measurement: def.id, label: def.label, services, db, cpu };
  }

  /** Where a measurement's profiles go: bench/results/<stem>.<id>.<service>.<kind>.json (git-ignored). */
  private outFiles(id: string, kind: 'cpuprofile' | 'heapprofile'): Record<string, string> {
    const outDir = resolve(REPO_ROOT, this.options.out);
    mkdirSync(outDir, { recursive: true });
    const stem = reportStem(this.startedAt, this.mode);
    const files = Object.fromEntries(
      GATEWAY_SERVICES.map((service) => [
        service,
        join(outDir, `${stem}.${id}.${service}.${kind}.json`),
      ]),
    );
    // An earlier run of the same day and commit left files of these names: they must not be read as this run's.
    for (const file of Object.values(files)) rmSync(file, { force: true });
    return files;
  }

  /** Waits (up to 20 s) for the hook to write each service's profile, then summarises it. */
  private async collectProfiles(
    files: Record<string, string>,
    summarise: (text: string) => ProfileSummary | undefined,
  ): Promise<ServiceProfile[]> {
    const deadline = Date.now() + 20_000;
    while (Object.values(files).some((file) => !existsSync(file)) && Date.now() < deadline)
      await sleep(200);
    return Object.entries(files).map(([service, path]) => {
      const file = relative(REPO_ROOT, path);
      if (!existsSync(path)) return { service, file, error: 'no profile was written' };
      const text = readFileSync(path, 'utf8');
      const memory = JSON.parse(text) as {
        memoryAtStart?: NodeJS.MemoryUsage;
        memoryAtEnd?: NodeJS.MemoryUsage;
      };
      return {
        service,
        file,
        summary: summarise(text),
        memoryAtStart: memory.memoryAtStart,
        memoryAtEnd: memory.memoryAtEnd,
      };
    });
  }

  /**
   * The floor of a create (bench/servers/create-floor.server.ts): its two roles as two processes
   * on the service CPU, writing to the run's database, as the gateway's two services do.
   */
  private async startFloor(logFile: (name: string) => string): Promise<RunningSystem> {
    const [corePort, apiPort] = [await freePort(), await freePort()];
    const launch = (role: 'core' | 'api', port: number, readyPath: string) =>
      this.track(
        ServerProcess.start({
          name: `floor-${role}`,
          entry: built('bench/servers/create-floor.server.js'),
          env: {
            ...process.env,
            NODE_ENV: 'production',
            FLOOR_ROLE: role,
            PORT: String(port),
            DATABASE_URL: this.db!.url,
            CORE_URL: `http://127.0.0.1:${corePort}`,
          },
          port,
          readyPath,
          cpus: this.placement.serviceCpus,
          logFile: logFile(`floor-${role}`),
          nodeFlags: this.options.nodeFlags,
        }),
      );
    // The core first: it creates the table the api reads.
    const core = await launch('core', corePort, '/core/v1/payins/ready');
    try {
      const api = await launch('api', apiPort, '/api/v1/payin/ready');
      return this.system(api.url, [api, core]);
    } catch (error) {
      await this.stopProcess(core);
      throw error;
    }
  }

  /**
   * Fresh processes for one scenario, pinned to the service CPU. With `profiles`, the gateway's
   * services load the profile hook, writing to the files named per service.
   */
  private async startSystem(kind: SystemKind, profiles?: ProfileFiles): Promise<RunningSystem> {
    const cpus = this.placement.serviceCpus;
    const start = ++this.systemStarts;
    const logFile = (name: string): string =>
      join(this.runDir, `${String(start).padStart(3, '0')}-${name}.log`);
    if (kind === 'floor') return this.startFloor(logFile);
    if (kind !== 'gateway') {
      const port = await freePort();
      const name = kind === 'nest' ? 'nest' : 'node:http';
      const entry = built(
        kind === 'nest' ? 'bench/servers/nest-bare.server.js' : 'bench/servers/node-http.server.js',
      );
      const server = await this.track(
        ServerProcess.start({
          name,
          entry,
          env: { ...process.env, PORT: String(port), NODE_ENV: 'production' },
          port,
          readyPath: '/api/v1/payin/ready',
          cpus,
          logFile: logFile(kind),
        }),
      );
      return this.system(server.url, [server]);
    }

    const [corePort, apiPort] = [await freePort(), await freePort()];
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...this.secrets,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      DATABASE_URL: this.db!.url,
      CORE_PORT: String(corePort),
      MERCHANT_API_PORT: String(apiPort),
      CORE_URL: `http://127.0.0.1:${corePort}`,
      DATA_DIR: join(this.runDir, 'data'),
      // The production logging path stays on (one JSON line per request); stdout goes to a file.
      LOG_LEVEL: 'info',
      // The limiters still run on every request; their ceilings are raised so the load measures the
      // API, not 429s: one store sends all of (a), and one client IP all of (a')'s failed signatures.
      RATE_LIMIT_POINTS: '1000000000',
      AUTH_FAILURE_LIMIT_POINTS: '1000000000',
      // A run's keys never meet an earlier run's in a shared Redis (fresh database ids restart at 1).
      REDIS_KEY_PREFIX: `bench-${this.runTag}:`,
    };
    const preload = profiles ? [built('bench/hooks/profile.hook.js')] : undefined;
    const profileEnv = (name: string): NodeJS.ProcessEnv => ({
      ...(profiles?.cpu ? { BENCH_CPU_PROFILE: profiles.cpu[name] } : {}),
      ...(profiles?.heap ? { BENCH_HEAP_PROFILE: profiles.heap[name] } : {}),
      ...(profiles?.heapSampling ? { BENCH_HEAP_SAMPLING: '1' } : {}),
    });
    const launch = (name: (typeof GATEWAY_SERVICES)[number], entry: string, port: number) =>
      this.track(
        ServerProcess.start({
          name,
          entry: built(entry),
          env: { ...env, ...profileEnv(name) },
          port,
          readyPath: '/health/ready',
          cpus,
          logFile: logFile(name),
          preload,
          nodeFlags: this.options.nodeFlags,
        }),
      );
    const started = await Promise.allSettled([
      launch('merchant-api', 'apps/merchant-api/src/main.js', apiPort),
      launch('core', 'apps/core/src/main.js', corePort),
    ]);
    const processes = started.flatMap((result) =>
      result.status === 'fulfilled' ? [result.value] : [],
    );
    const failed = started.find(
      (result): result is PromiseRejectedResult => result.status === 'rejected',
    );
    if (failed) {
      await Promise.all(processes.map((p) => this.stopProcess(p)));
      throw failed.reason;
    }
    return this.system(`http://127.0.0.1:${apiPort}`, processes);
  }

  private system(url: string, processes: ServerProcess[]): RunningSystem {
    return {
      url,
      processes,
      rss: () => Object.fromEntries(processes.map((p) => [p.name, p.rssMb()])),
      dead: () =>
        processes.filter((p) => !p.running).map((p) => `${p.name} ${p.describeExit()}`)[0],
      stop: async () => {
        await Promise.all(processes.map((p) => this.stopProcess(p)));
      },
    };
  }

  private async track(starting: Promise<ServerProcess>): Promise<ServerProcess> {
    const server = await starting;
    this.running.add(server);
    return server;
  }

  private async stopProcess(server: ServerProcess): Promise<void> {
    await server.stop();
    this.running.delete(server);
  }

  /**
   * One load-generator child: warm-up (dropped), then the measured run. With `watched`, also how
   * much CPU other processes of the machine took meanwhile.
   */
  private async runLoad(
    url: string,
    def: MeasurementDef,
    tag: string,
    warmupSeconds: number,
    durationSeconds: number,
    watched?: RunningSystem,
  ): Promise<{ result: LoadResult; interference: Interference }> {
    const n = ++this.loadRuns;
    const spec: LoadSpec = {
      url,
      connections: def.connections(this.options),
      warmupSeconds,
      warmupResponses: this.options.warmupResponses,
      warmupMaxSeconds: this.options.warmupMax,
      durationSeconds,
      timeoutSeconds: 10,
      plan: def.plan(this.fixtures, tag),
      resultFile: join(this.runDir, `load-${n}.result.json`),
    };
    const specFile = join(this.runDir, `load-${n}.spec.json`);
    writeFileSync(specFile, JSON.stringify(spec));
    const pids = (): number[] => [
      ...(watched?.processes.map((p) => p.pid) ?? []),
      ...(this.db?.pids() ?? []),
    ];
    let before = snapshot(pids());
    // The warm-up runs in the same child: the window starts once the child says it is measuring.
    await runChild(
      built('bench/load/load-generator.js'),
      [specFile],
      this.placement.loadCpus,
      () => {
        before = snapshot(pids());
      },
    );
    const after = snapshot(pids());
    return {
      result: JSON.parse(readFileSync(spec.resultFile, 'utf8')) as LoadResult,
      interference: interference(before, after),
    };
  }

  private summarise(scenarios: ScenarioDef[]): MeasurementSummary[] {
    return scenarios.flatMap((scenario) =>
      scenario.measurements.map((def): MeasurementSummary => {
        const rounds = this.results.get(def.id) ?? [];
        const loads = rounds.map((r) => r.load);
        const services = [...new Set(rounds.flatMap((r) => Object.keys(r.rssMb)))];
        return {
          id: def.id,
          label: def.label,
          connections: def.connections(this.options),
          expectedStatus: def.expectedStatus,
          rounds: rounds.length,
          requestsPerSecond: spread(loads.map((l) => l.requestsPerSecond)),
          p50Ms: spread(loads.map((l) => l.latencyMs.p50)),
          p99Ms: spread(loads.map((l) => l.latencyMs.p99)),
          p999Ms: spread(loads.map((l) => l.latencyMs.p999)),
          non2xx: sum(loads.map((l) => l.non2xx)),
          errors: sum(loads.map((l) => l.errors)),
          unexpected: sum(loads.map((l) => l.responses - (l.statuses[def.expectedStatus] ?? 0))),
          rssMb: Object.fromEntries(
            services.map((service) => [
              service,
              spread(rounds.map((r) => r.rssMb[service])).median,
            ]),
          ),
          bytesPerResponse: spread(loads.map((l) => l.bytesPerResponse)).median,
          sampleErrors: loads.flatMap((l) => l.sampleErrors).slice(0, 3),
          otherCpu: Math.max(0, ...rounds.map((r) => r.interference.otherCpu)),
          loadGeneratorCpu: Math.max(0, ...loads.map((l) => l.ownCpu)),
        };
      }),
    );
  }

  private figures(
    measurements: MeasurementSummary[],
  ): Record<string, MeasurementFigures | undefined> {
    const figures: Record<string, MeasurementFigures | undefined> = {};
    for (const m of measurements) {
      if (!m.rounds) continue;
      const ledgers = (this.results.get(m.id) ?? []).flatMap((r) =>
        r.ledger ? [r.ledger.violations] : [],
      );
      figures[m.id] = {
        requestsPerSecond: m.requestsPerSecond,
        p99Ms: m.p99Ms,
        failures: m.unexpected + m.errors,
        violations: ledgers.length ? sum(ledgers) : undefined,
      };
    }
    const soak = this.soakSummary;
    if (soak) {
      const point = (value: number): { median: number; min: number; max: number } => ({
        median: value,
        min: value,
        max: value,
      });
      figures['e'] = {
        requestsPerSecond: point(soak.requestsPerSecond),
        p99Ms: point(soak.p99Ms),
        failures: soak.non2xx + soak.errors,
        violations: soak.ledger?.violations,
        rssGrowth: Object.fromEntries(
          Object.keys(soak.rssStartMb).map((service) => [
            service,
            soak.rssEndMb[service] / soak.rssStartMb[service] - 1,
          ]),
        ),
      };
    }
    return figures;
  }

  private publish(report: RunReport): void {
    process.stdout.write(`\n${textTable(headlineRows(report))}\n`);
    if (report.targets) process.stdout.write(`\n${textTable(targetRows(report.targets))}\n`);
    if (report.errors.length)
      process.stdout.write(`\nErrors:\n${report.errors.map((e) => `- ${e}`).join('\n')}\n`);
    const outDir = resolve(REPO_ROOT, this.options.out);
    mkdirSync(outDir, { recursive: true });
    const stem = reportStem(this.startedAt, this.mode);
    const json = join(outDir, `${stem}.json`);
    writeFileSync(
      json,
      JSON.stringify({ ...report, raw: Object.fromEntries(this.results) }, null, 2) + '\n',
    );
    const written = [relative(REPO_ROOT, json)];
    // Smoke reports only prove the harness runs; they are not results worth committing.
    if (this.mode !== 'smoke') {
      const markdown = join(outDir, `${stem}.md`);
      writeFileSync(markdown, renderMarkdown(report));
      written.unshift(relative(REPO_ROOT, markdown));
    }
    process.stdout.write(`\nReport: ${written.join(' and ')}\n`);
  }

  private environment(): Record<string, string> {
    const cpu = cpus();
    const autocannon = JSON.parse(
      readFileSync(join(REPO_ROOT, 'node_modules/autocannon/package.json'), 'utf8'),
    ) as { version: string };
    return {
      machine: `${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${type()} ${release()}`,
      node: process.version,
      database: this.db?.description ?? 'none (baselines only)',
      redis: process.env.REDIS_URL
        ? `Redis at ${redactUrl(process.env.REDIS_URL)} (REDIS_URL)`
        : 'none: in-process cache, rate limiter and nonce store',
      placement: this.placement.description,
      'load generator': `autocannon ${autocannon.version} in a child process, 1 pipelined request per connection, 10 s timeout`,
      services:
        'compiled with tsc into node_modules/.cache/payment-gateway-bench; NODE_ENV=production, LOG_LEVEL=info (request log to a file), RATE_LIMIT_POINTS and AUTH_FAILURE_LIMIT_POINTS 1000000000 (limiters run, never refuse), other settings default',
    };
  }

  private settings(): Record<string, string | number> {
    const o = this.options;
    return {
      rounds: o.rounds,
      'warm-up per measurement': warmupLabel(o),
      'measured per scenario (s)': o.duration,
      'measured per balance page (s)': o.pageDuration,
      'soak (s)': o.soak,
      'soak warm-up (s)': o.soakWarmup,
      'soak under the heap sampler (--heap-profile)': o.heapProfile ? 'yes' : 'no',
      'ledger rows (c)': o.ledgerRows,
      "connections: baselines, (a), (a'), (b)": o.connections,
      'connections: (c)': o.pageConnections,
      'concurrent clients: (d)': o.payoutConnections,
      'connections: (e)': o.soakConnections,
      'node flags of the services (--node-flags)': o.nodeFlags.join(' ') || 'none',
    };
  }

  private fail(what: string, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.errors.push(`${what}: ${message}`);
    this.say(`${what} FAILED: ${message.split('\n')[0]}`);
    // A harness bug (not a service failing) is found by its stack.
    if (process.env.BENCH_DEBUG && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  }

  async cleanup(): Promise<void> {
    await Promise.all([...this.running].map((p) => p.stop()));
    if (this.db)
      await this.db
        .dispose()
        .catch((error: unknown) => this.say(`database: could not dispose: ${String(error)}`));
    if (this.options.keep) this.say(`kept logs and load specs in ${this.runDir}`);
    else rmSync(this.runDir, { recursive: true, force: true });
  }
}

/** The gateway and the create floor write to the run's database, prepared before any round. */
function usesRunDatabase(system: SystemKind): boolean {
  return system === 'gateway' || system === 'floor';
}

/** "1 s warm-up", or with the lengthening: "1 s warm-up, longer (to 1,000 responses, 5 s at most)". */
function warmupLabel(o: BenchOptions): string {
  return o.warmupResponses > 0 && o.warmupMax > o.warmup
    ? `${o.warmup} s warm-up, longer (to ${o.warmupResponses.toLocaleString('en-US')} responses, ${o.warmupMax} s at most)`
    : `${o.warmup} s warm-up`;
}

function describeLoad(load: LoadResult, expected: number, noise: Interference): string {
  const unexpected = load.responses - (load.statuses[expected] ?? 0);
  return (
    `${Math.round(load.requestsPerSecond).toLocaleString('en-US')} req/s, p50 ${latency(load.latencyMs.p50)} ms, p99 ${latency(load.latencyMs.p99)} ms, ` +
    `p99.9 ${latency(load.latencyMs.p999)} ms` +
    (load.warmup.seconds > 0
      ? ` after ${load.warmup.seconds.toFixed(0)} s of warm-up (${load.warmup.responses.toLocaleString('en-US')} responses)`
      : '') +
    (unexpected ? `, ${unexpected} unexpected status (${JSON.stringify(load.statuses)})` : '') +
    (load.errors ? `, ${load.errors} socket errors/timeouts` : '') +
    (noise.otherCpu >= 0.1
      ? ` [other processes used ${noise.otherCpu.toFixed(2)} CPU meanwhile]`
      : '')
  );
}

function formatRss(rss: Record<string, number>): string {
  return Object.entries(rss)
    .map(([service, value]) => `${service} ${value.toFixed(0)} MiB`)
    .join(', ');
}

const sum = (values: number[]): number => values.reduce((total, value) => total + value, 0);

function reportStem(startedAt: Date, mode: RunReport['mode']): string {
  return `${startedAt.toISOString().slice(0, 10)}-${gitState().commit}${mode === 'full' ? '' : `-${mode}`}`;
}

function gitState(): { commit: string; dirty: boolean } {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return { commit, dirty: status.trim() !== '' };
  } catch {
    return { commit: 'nogit', dirty: false };
  }
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  copyRuntimeAssets(REPO_ROOT, BUILD_ROOT);
  const placement = detectPlacement({ pin: options.pin, pinDatabase: options.pinDatabase });
  // The harness itself waits and reads /proc while load runs: it belongs with the load generator.
  if (placement.loadCpus) pin([process.pid], placement.loadCpus);
  const bench = new Bench(options, placement, mkdtempSync(join(tmpdir(), 'gateway-bench-')));
  let stopping = false;
  const interrupt = (): void => {
    if (stopping) return;
    stopping = true;
    bench.say('interrupted: stopping services and the database');
    void bench.cleanup().finally(() => process.exit(130));
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  let code = 1;
  try {
    code = await bench.run();
  } catch (error) {
    process.stderr.write(
      `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  } finally {
    await bench.cleanup();
  }
  process.exit(code);
}

void main();
