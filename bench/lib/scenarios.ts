import { pathPayload, sign } from '@app/signature';
import type { LoadPlan } from '../load/load-spec';
import { storeHeaders, transactionReadPath } from '../load/plans';
import type { BenchOptions, ScenarioId } from './options';
import { type Fixtures, PAYOUT_CARD } from './seed';
import { PAGE_KINDS, PAGE_LIMITS, pageMeasurementId } from './targets';

/**
 * What answers the load: one of the bare baselines, the floor of a create (two bare NestJS apps
 * and PostgreSQL, bench/servers/create-floor.server.ts), or the whole gateway (core + merchant API).
 */
export type SystemKind = 'node-http' | 'nest' | 'floor' | 'gateway';

export interface MeasurementDef {
  id: string;
  label: string;
  expectedStatus: number;
  connections: (options: BenchOptions) => number;
  duration: (options: BenchOptions) => number;
  /** `tag` is unique per run and round (payment ids must not repeat). */
  plan: (fixtures: Fixtures | undefined, tag: string) => LoadPlan;
}

export interface ScenarioDef {
  id: ScenarioId;
  system: SystemKind;
  measurements: MeasurementDef[];
  /** Merchant whose ledger is checked after the scenario, while its processes still run. */
  ledgerOf?: (fixtures: Fixtures) => number;
}

const need = (fixtures: Fixtures | undefined): Fixtures => {
  if (!fixtures) throw new Error('no fixtures: seeding failed earlier');
  return fixtures;
};

/**
 * The baselines get the very request (a) sends, path, query and header sizes alike, so the
 * only difference left is what the server does with it.
 */
const BASELINE_ID = '00000000-0000-4000-8000-000000000000';
const baselinePlan = (): LoadPlan => ({
  kind: 'fixed',
  method: 'GET',
  path: transactionReadPath(
    { publicToken: 'pk_baseline', privateToken: 'baseline' },
    'payin',
    BASELINE_ID,
  ),
  headers: { 'x-public-token': 'pk_baseline_000000000000000000000000000000' },
});

const standard = {
  connections: (o: BenchOptions) => o.connections,
  duration: (o: BenchOptions) => o.duration,
};

function pageMeasurements(): MeasurementDef[] {
  const defs: MeasurementDef[] = [];
  for (const limit of PAGE_LIMITS) {
    for (const page of PAGE_KINDS) {
      defs.push({
        id: pageMeasurementId(page, limit),
        label: `(c) balance list, ${page === 'first' ? 'page 1' : `${page} page`}, limit ${limit}`,
        expectedStatus: 200,
        connections: (o) => o.pageConnections,
        duration: (o) => o.pageDuration,
        plan: (fixtures) => {
          const { ledger } = need(fixtures);
          const totalPages = Math.ceil(ledger.rows / limit);
          return {
            kind: 'balance-page',
            store: ledger,
            limit,
            totalPages,
            page: page === 'first' ? 1 : page === 'last' ? totalPages : 'random',
          };
        },
      });
    }
  }
  return defs;
}

export const SCENARIOS: ScenarioDef[] = [
  {
    id: 'node-http',
    system: 'node-http',
    measurements: [
      {
        id: 'node-http',
        label: 'baseline: bare node:http, 1.2 KB JSON',
        expectedStatus: 200,
        ...standard,
        plan: baselinePlan,
      },
    ],
  },
  {
    id: 'nest',
    system: 'nest',
    measurements: [
      {
        id: 'nest',
        label: 'baseline: bare NestJS (Express), 1.2 KB JSON',
        expectedStatus: 200,
        ...standard,
        plan: baselinePlan,
      },
    ],
  },
  {
    id: 'a',
    system: 'gateway',
    measurements: [
      {
        id: 'a',
        label: '(a) signed read of a cached payin',
        expectedStatus: 200,
        ...standard,
        plan: (fixtures) => {
          const { read } = need(fixtures);
          return {
            kind: 'fixed',
            method: 'GET',
            path: transactionReadPath(read, 'payin', read.payinId),
            headers: storeHeaders(read),
          };
        },
      },
    ],
  },
  {
    id: 'a401',
    system: 'gateway',
    measurements: [
      {
        id: 'a401',
        label: "(a') the same read, wrong signature",
        expectedStatus: 401,
        ...standard,
        plan: (fixtures) => {
          const { read } = need(fixtures);
          // A well-formed signature made with the wrong key: the server does all the work of (a)'s check.
          const wrong = sign(pathPayload(read.payinId), `${read.privateToken}-wrong`);
          return {
            kind: 'fixed',
            method: 'GET',
            path: `/api/v1/payin/${read.payinId}?transactionId=${read.payinId}&signature=${wrong}`,
            headers: storeHeaders(read),
          };
        },
      },
    ],
  },
  {
    id: 'floor',
    system: 'floor',
    measurements: [
      {
        id: 'floor',
        label: 'baseline: create floor, NestJS → NestJS → PostgreSQL',
        expectedStatus: 200,
        ...standard,
        // (b)'s very requests, signed with keys the floor never checks.
        plan: (_fixtures, tag) => ({
          kind: 'payin-create',
          store: { publicToken: 'pk_floor_00000000000000000000000000', privateToken: 'floor' },
          tag,
        }),
      },
    ],
  },
  {
    id: 'b',
    system: 'gateway',
    measurements: [
      {
        id: 'b',
        label: '(b) payin create, end to end',
        expectedStatus: 200,
        ...standard,
        plan: (fixtures, tag) => ({ kind: 'payin-create', store: need(fixtures).create, tag }),
      },
    ],
  },
  { id: 'c', system: 'gateway', measurements: pageMeasurements() },
  {
    id: 'd',
    system: 'gateway',
    measurements: [
      {
        id: 'd',
        label: '(d) payout create, one store',
        expectedStatus: 200,
        connections: (o) => o.payoutConnections,
        duration: (o) => o.duration,
        plan: (fixtures) => ({
          kind: 'payout-create',
          store: need(fixtures).payout,
          amount: 1,
          cardNumber: PAYOUT_CARD,
        }),
      },
    ],
    ledgerOf: (fixtures) => fixtures.payout.merchantId,
  },
];

/** The soak's traffic, also used (briefly) to profile it. */
export const SOAK_MEASUREMENT: MeasurementDef = {
  id: 'e',
  label: '(e) mixed traffic',
  expectedStatus: 200,
  connections: (o) => o.soakConnections,
  duration: (o) => o.duration,
  plan: (fixtures, tag) => {
    const { soak } = need(fixtures);
    return {
      kind: 'mixed',
      store: soak,
      tag,
      totalPages: Math.ceil(soak.rows / 20),
      cardNumber: PAYOUT_CARD,
    };
  },
};

/**
 * The measurements of a scenario share its processes, so the first of them runs on the
 * freshest (least warmed-up) ones: at 747f34a the cached page 1 at limit 20, always first,
 * answered 1,359 req/s against 2,242 for the identical work of the cached last page. Each round
 * starts at another measurement, so no measurement is always the first and the median over
 * rounds drops the cold one.
 */
export function rotatedForRound<T>(measurements: readonly T[], round: number, rounds: number): T[] {
  const step = Math.max(1, Math.floor(measurements.length / Math.max(1, rounds)));
  const offset = ((round - 1) * step) % Math.max(1, measurements.length);
  return [...measurements.slice(offset), ...measurements.slice(0, offset)];
}
