/**
 * What the orchestrator asks of the load generator, and what it gets back. Both sides are
 * separate processes (the generator runs pinned to its own CPU), so everything here is JSON.
 */

/** Credentials of one store, as a merchant's integration holds them. */
export interface StoreKeys {
  publicToken: string;
  privateToken: string;
}

/** The same request over and over: baselines, the cached read (a) and the 401 path (a'). */
export interface FixedPlan {
  kind: 'fixed';
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** POST /api/v1/payin, each with its own `paymentId` (a merchant's order id), signed per request. */
export interface PayinCreatePlan {
  kind: 'payin-create';
  store: StoreKeys;
  /** Keeps `paymentId`s of different runs and rounds apart. */
  tag: string;
}

/** POST /api/v1/payout on one store, signed once: every payout is the same request. */
export interface PayoutCreatePlan {
  kind: 'payout-create';
  store: StoreKeys;
  amount: number;
  cardNumber: string;
}

/** GET /api/v1/merchant/balance/changes, a fixed page or a random one per request. */
export interface BalancePagePlan {
  kind: 'balance-page';
  store: StoreKeys;
  limit: number;
  page: number | 'random';
  /** Pages to draw from when `page` is random. */
  totalPages: number;
}

/**
 * The soak's mixed traffic: each connection loops create payin, read it, confirm or cancel it,
 * read it again, a balance page, create a payout, cancel the payout.
 */
export interface MixedPlan {
  kind: 'mixed';
  store: StoreKeys;
  tag: string;
  /** Balance pages to draw from (limit 20). */
  totalPages: number;
  cardNumber: string;
}

export type LoadPlan = FixedPlan | PayinCreatePlan | PayoutCreatePlan | BalancePagePlan | MixedPlan;

export interface LoadSpec {
  url: string;
  connections: number;
  /** Seconds of load whose figures are thrown away (JIT, caches, pools). 0 skips it. */
  warmupSeconds: number;
  /** A warm-up that got fewer responses goes on (bench/load/warmup.ts); 0 never extends it. */
  warmupResponses: number;
  /** The longest a warm-up may run in all. */
  warmupMaxSeconds: number;
  durationSeconds: number;
  /** Per-request timeout in seconds: a response slower than this counts as an error. */
  timeoutSeconds: number;
  plan: LoadPlan;
  /** Where the generator writes its LoadResult as JSON. */
  resultFile: string;
}

export interface LoadResult {
  /** Responses received in the measured window, whatever their status. */
  responses: number;
  durationSeconds: number;
  requestsPerSecond: number;
  /** Latency percentiles in milliseconds over every response of the measured window. */
  latencyMs: { p50: number; p90: number; p99: number; p999: number; max: number; mean: number };
  /** Responses by HTTP status. */
  statuses: Record<string, number>;
  non2xx: number;
  /** Socket errors and timeouts (no response at all). */
  errors: number;
  timeouts: number;
  /** Average response size in bytes (headers and body). */
  bytesPerResponse: number;
  /** For the mixed plan: responses by step and status, e.g. `{ "payin create": { "200": 1234 } }`. */
  steps?: Record<string, Record<string, number>>;
  /** The first few non-2xx response bodies, to say what went wrong. */
  sampleErrors: string[];
  /** CPU the generator itself used, in CPUs (1 = saturated: the figures are the generator's limit, not the server's). */
  ownCpu: number;
  /** The warm-up before the measured window: how long it ran and the responses it got. */
  warmup: { seconds: number; responses: number };
}
