import { randomBytes } from 'node:crypto';
import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { Client, Notification } from 'pg';
import { StoreCredentialsCache } from '@app/auth';
import { APP_CONFIG, AppConfig } from '@app/config';
import { CacheKeys } from './cache-keys';
import { ReadCache } from './read-cache.service';

export const TRANSACTION_CHANNEL = 'gateway_transaction_changed';
export const BALANCE_CHANNEL = 'gateway_balance_changed';
export const STORE_CHANNEL = 'gateway_store_changed';
export const MERCHANT_CHANNEL = 'gateway_merchant_changed';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A merchant id or a store id, as the core announces them. */
const ROW_ID = /^\d{1,10}$/;
const PING_INTERVAL_MS = 5_000;
const MAX_RECONNECT_DELAY_MS = 5_000;

/**
 * Keeps this instance's cache coherent with the core's writes (docs/core-api.md, "Change
 * notifications"): a dedicated PostgreSQL connection LISTENs to the core's channels and drops
 * the entries each notification names. PostgreSQL delivers a notification to every listening
 * session on commit, so every instance drops its entries within milliseconds, with or without
 * Redis. The connection is pinged and re-established with backoff; while it is down the cache
 * is bypassed, and once it is back the cache is cleared before use. The ping also retries that
 * clearing while a Redis outage keeps the cache off. Store and merchant announcements (token
 * rotation, access flags, settings) drop that store's or merchant's entries of the guard's
 * StoreCredentialsCache the same way.
 */
@Injectable()
export class ChangeListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ChangeListener.name);
  /** Unique per instance, so an operator (or a test) can find this session in pg_stat_activity. */
  readonly applicationName = `merchant-api-listener-${process.pid}-${randomBytes(4).toString('hex')}`;
  private client: Client | null = null;
  private stopped = false;
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private pingTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly cache: ReadCache,
    private readonly credentials: StoreCredentialsCache,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    const client = this.client;
    this.client = null;
    client?.removeAllListeners('end');
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({
      connectionString: this.config.database.url,
      application_name: this.applicationName,
      keepAlive: true,
      connectionTimeoutMillis: 5_000,
    });
    client.on('notification', (message) => void this.onNotification(message));
    client.on('error', (error) => this.onLost(client, error));
    client.on('end', () => this.onLost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${TRANSACTION_CHANNEL}`);
      await client.query(`LISTEN ${BALANCE_CHANNEL}`);
      await client.query(`LISTEN ${STORE_CHANNEL}`);
      await client.query(`LISTEN ${MERCHANT_CHANNEL}`);
    } catch (error) {
      this.onLost(client, error as Error);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.attempt = 0;
    this.credentials.activate();
    // Listening from here on; whatever changed before is cleared away before the cache is used.
    await this.cache.resync();
    this.pingTimer = setInterval(() => {
      client.query('SELECT 1').then(
        // Also brings the cache back after a Redis outage turned it off.
        () => (this.cache.isCoherent || this.client !== client ? undefined : this.cache.resync()),
        (error: Error) => this.onLost(client, error),
      );
    }, PING_INTERVAL_MS);
    this.pingTimer.unref();
  }

  private onLost(client: Client, error?: Error): void {
    if (client !== this.client && this.client !== null) return;
    this.cache.markIncoherent();
    this.credentials.suspend();
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
    this.client = null;
    client.removeAllListeners('end');
    client.removeAllListeners('error');
    client.on('error', () => undefined);
    void client.end().catch(() => undefined);
    if (this.stopped || this.reconnectTimer) return;
    this.attempt += 1;
    const delay = Math.min(100 * 2 ** (this.attempt - 1), MAX_RECONNECT_DELAY_MS);
    this.logger.warn(
      `change listener disconnected${error ? ` (${error.message})` : ''}; reconnecting in ${delay} ms`,
    );
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.connect();
    }, delay);
    this.reconnectTimer.unref();
  }

  private async onNotification(message: Notification): Promise<void> {
    const payload = message.payload ?? '';
    if (message.channel === TRANSACTION_CHANNEL && UUID.test(payload)) {
      await this.cache.invalidate(CacheKeys.transaction(payload));
    } else if (message.channel === BALANCE_CHANNEL && ROW_ID.test(payload)) {
      await this.cache.invalidate(CacheKeys.balanceVersion(payload));
    } else if (message.channel === STORE_CHANNEL || message.channel === MERCHANT_CHANNEL) {
      // The store's or merchant's own entries; an announcement without a readable id, all.
      if (!ROW_ID.test(payload)) this.credentials.clear();
      else if (message.channel === STORE_CHANNEL) this.credentials.forgetStore(Number(payload));
      else this.credentials.forgetMerchant(Number(payload));
    }
  }
}
