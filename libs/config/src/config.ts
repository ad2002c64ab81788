import { resolve } from 'node:path';
import { ConfigError, EnvReader } from './env';
import { loadSecrets, Secrets } from './secrets';

export interface DatabaseConfig {
  /** Unset means: the launcher runs an embedded PostgreSQL. The apps themselves need it set. */
  url?: string;
  poolSize: number;
}

export interface RedisConfig {
  /** Unset means an in-process cache, rate limiter and nonce store. */
  url?: string;
  /** Put in front of every key and channel, so several deployments (or test runs) can share one Redis. */
  keyPrefix: string;
}

export interface MerchantApiConfig {
  host: string;
  port: number;
  /** Base URL of the core HTTP API the merchant API calls. */
  coreUrl: string;
  coreTimeoutMs: number;
  jsonBodyLimit: string;
  cacheTtlSeconds: number;
  /** In-process cache only (no REDIS_URL): at most this many entries, least recently used dropped. */
  cacheMaxEntries: number;
  /** Bytes of cached values the in-process cache may hold (CACHE_MAX_MB). */
  cacheMaxBytes: number;
  rateLimitPoints: number;
  rateLimitWindowSeconds: number;
  /** Failed authentications one client IP may make per rate-limit window before it gets 429. */
  authFailureLimitPoints: number;
  /** Express `trust proxy` setting: which proxies may set X-Forwarded-For. */
  trustProxy: string[];
  tlsCertFile?: string;
  tlsKeyFile?: string;
  replayWindowSeconds: number;
  idempotencyTtlSeconds: number;
}

export interface CoreConfig {
  host: string;
  port: number;
  publicBaseUrl: string;
  messengerBotBaseUrl: string;
  defaultCurrency: string;
  payinTtlSeconds: number;
  expiryIntervalMs: number;
  storageDir: string;
  fileUrlTtlSeconds: number;
  webhookAllowPrivate: boolean;
  webhookTimeoutMs: number;
  webhookRetrySchedule: number[];
  webhookPollIntervalMs: number;
  /**
   * False: this instance writes notifications but never sends them (another instance does).
   * Off by default under NODE_ENV=test: every dispatcher works every store's outbox, so only
   * the webhook suites, which turn it on, may send on the shared test database.
   */
  webhookDispatcherEnabled: boolean;
  /** Notifications one dispatcher claims and sends at once. */
  webhookConcurrency: number;
}

export interface AppConfig {
  env: string;
  dataDir: string;
  logLevel: string;
  /**
   * How far V8 lets the old generation grow past what the last full collection kept alive, in
   * percent (HEAP_GROWING_PERCENT); 0, the default, leaves V8's own choice. See
   * `applyRuntimeSettings`.
   */
  heapGrowingPercent: number;
  database: DatabaseConfig;
  redis: RedisConfig;
  merchantApi: MerchantApiConfig;
  core: CoreConfig;
  secrets: Secrets;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** decisions.md section 5: about 10 s, 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h. */
const DEFAULT_RETRY_SCHEDULE = '10,60,300,1800,7200,21600,43200,86400';

/** Reads and validates the whole configuration; a bad value throws ConfigError naming it. */
export function loadConfig(source: Record<string, string | undefined> = process.env): AppConfig {
  const env = new EnvReader(source);
  const dataDir = resolve(env.string('DATA_DIR', '.data'));
  const corePort = env.port('CORE_PORT', 3001);
  const host = env.string('HOST', '127.0.0.1');

  const tlsCertFile = env.optional('TLS_CERT_FILE');
  const tlsKeyFile = env.optional('TLS_KEY_FILE');
  if (Boolean(tlsCertFile) !== Boolean(tlsKeyFile)) {
    throw new ConfigError(
      tlsCertFile ? 'TLS_KEY_FILE' : 'TLS_CERT_FILE',
      'must be set together with the other TLS file',
    );
  }

  const retrySchedule = env
    .string('WEBHOOK_RETRY_SCHEDULE', DEFAULT_RETRY_SCHEDULE)
    .split(',')
    .map((part) => part.trim());
  if (retrySchedule.some((part) => !/^\d+(\.\d+)?$/.test(part))) {
    throw new ConfigError('WEBHOOK_RETRY_SCHEDULE', 'must be a comma-separated list of seconds');
  }

  const currency = env.string('DEFAULT_CURRENCY', 'USD');
  if (!/^[A-Z]{3}$/.test(currency))
    throw new ConfigError('DEFAULT_CURRENCY', `must be a 3-letter code, got "${currency}"`);

  return {
    env: env.string('NODE_ENV', 'development'),
    dataDir,
    logLevel: env.oneOf('LOG_LEVEL', 'info', LOG_LEVELS),
    heapGrowingPercent: env.int('HEAP_GROWING_PERCENT', 0, { min: 0, max: 400 }),
    database: {
      url: env.url('DATABASE_URL', undefined, ['postgres', 'postgresql']),
      poolSize: env.int('DATABASE_POOL_SIZE', 10, { min: 1, max: 200 }),
    },
    redis: {
      url: env.url('REDIS_URL', undefined, ['redis', 'rediss']),
      keyPrefix: env.string('REDIS_KEY_PREFIX', 'gw:'),
    },
    merchantApi: {
      host,
      port: env.port('MERCHANT_API_PORT', 3000),
      coreUrl: env.url('CORE_URL', `http://127.0.0.1:${corePort}`, ['http', 'https'])!,
      coreTimeoutMs: env.int('CORE_TIMEOUT_MS', 10_000, { min: 100 }),
      jsonBodyLimit: env.string('JSON_BODY_LIMIT', '1mb'),
      cacheTtlSeconds: env.int('CACHE_TTL_SECONDS', 60, { min: 1 }),
      cacheMaxEntries: env.int('CACHE_MAX_ENTRIES', 10_000, { min: 100 }),
      cacheMaxBytes: env.int('CACHE_MAX_MB', 16, { min: 1 }) * 1024 * 1024,
      rateLimitPoints: env.int('RATE_LIMIT_POINTS', 600, { min: 1 }),
      rateLimitWindowSeconds: env.int('RATE_LIMIT_WINDOW_SECONDS', 60, { min: 1 }),
      authFailureLimitPoints: env.int('AUTH_FAILURE_LIMIT_POINTS', 300, { min: 1 }),
      trustProxy: env.list('TRUST_PROXY', ['loopback']),
      tlsCertFile,
      tlsKeyFile,
      replayWindowSeconds: env.int('REPLAY_WINDOW_SECONDS', 300, { min: 1 }),
      idempotencyTtlSeconds: env.int('IDEMPOTENCY_TTL_SECONDS', 86_400, { min: 60 }),
    },
    core: {
      host,
      port: corePort,
      publicBaseUrl: env.url('PUBLIC_BASE_URL', `http://127.0.0.1:${corePort}`, ['http', 'https'])!,
      messengerBotBaseUrl: env.url('MESSENGER_BOT_BASE_URL', 'https://t.me', ['http', 'https'])!,
      defaultCurrency: currency,
      payinTtlSeconds: env.int('PAYIN_TTL_SECONDS', 1800, { min: 1 }),
      expiryIntervalMs: env.int('EXPIRY_INTERVAL_MS', 1000, { min: 50 }),
      storageDir: resolve(env.string('STORAGE_DIR', resolve(dataDir, 'proofs'))),
      fileUrlTtlSeconds: env.int('FILE_URL_TTL_SECONDS', 3600, { min: 10 }),
      webhookAllowPrivate: env.bool('WEBHOOK_ALLOW_PRIVATE', false),
      webhookTimeoutMs: env.int('WEBHOOK_TIMEOUT_MS', 10_000, { min: 100 }),
      webhookRetrySchedule: retrySchedule.map(Number),
      webhookPollIntervalMs: env.int('WEBHOOK_POLL_INTERVAL_MS', 500, { min: 20 }),
      webhookDispatcherEnabled: env.bool('WEBHOOK_DISPATCHER_ENABLED', true),
      webhookConcurrency: env.int('WEBHOOK_CONCURRENCY', 50, { min: 1, max: 500 }),
    },
    secrets: loadSecrets(env, dataDir),
  };
}

/**
 * For entry points: a bad value prints one line naming the variable and exits 1, no stack trace.
 */
export function loadConfigOrExit(options: { requireDatabase?: boolean } = {}): AppConfig {
  try {
    const config = loadConfig();
    if (options.requireDatabase && !config.database.url) {
      throw new ConfigError(
        'DATABASE_URL',
        'must be set (npm start sets it for the embedded PostgreSQL)',
      );
    }
    return config;
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}
