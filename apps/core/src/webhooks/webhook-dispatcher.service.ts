import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { AppConfig, APP_CONFIG } from '@app/config';
import { AttemptOutcome, ClaimedEvent, WebhookEventRepository } from './webhook-event.repository';
import { WEBHOOK_PENDING_CHANNEL } from './webhook-outbox.service';
import { buildWebhookRequest } from './webhook-payload';
import { StoreSigningKeys, WebhookSecretService } from './webhook-secret.service';
import { SendResult, WebhookSender } from './webhook-sender';

/** The part of node-postgres' Client the LISTEN connection uses (the pg package ships no types here). */
interface ListenClient {
  connect(): Promise<void>;
  query(sql: string): Promise<unknown>;
  end(): Promise<void>;
  on(event: 'notification', listener: () => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
}

const LISTEN_RETRY_MS = 5_000;

/**
 * Delivers the webhook outbox (decisions.md section 5). Every core instance may run one: events
 * are claimed with FOR UPDATE SKIP LOCKED plus a lease, so in the normal course each is sent by
 * one instance once; an instance that dies mid-attempt leaves a lease that expires, and another
 * instance sends the event again (at least once). Up to WEBHOOK_CONCURRENCY attempts run at a
 * time and a slot is refilled as soon as it frees, so one slow merchant does not hold up others.
 * It polls every WEBHOOK_POLL_INTERVAL_MS and wakes at once on the outbox's pg_notify.
 */
@Injectable()
export class WebhookDispatcherService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('WebhookDispatcher');
  private readonly sender: WebhookSender;
  private readonly shutdown = new AbortController();
  private readonly concurrency: number;
  private readonly pollIntervalMs: number;
  private readonly retrySchedule: number[];
  /** Longer than any attempt can take (the deadline covers connect to last byte), with room for the database. */
  private readonly leaseMs: number;
  private readonly inFlight = new Set<Promise<void>>();
  private started = false;
  private stopping = false;
  private cycle: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private listener: ListenClient | null = null;
  private listenRetryAt = 0;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly events: WebhookEventRepository,
    private readonly secrets: WebhookSecretService,
  ) {
    const core = config.core;
    this.sender = new WebhookSender({
      timeoutMs: core.webhookTimeoutMs,
      allowPrivate: core.webhookAllowPrivate,
    });
    this.concurrency = core.webhookConcurrency;
    this.pollIntervalMs = core.webhookPollIntervalMs;
    this.retrySchedule = core.webhookRetrySchedule;
    this.leaseMs = 2 * core.webhookTimeoutMs + 2_000;
    // Every attempt in flight listens on this one signal.
    setMaxListeners(0, this.shutdown.signal);
  }

  onApplicationBootstrap(): void {
    if (this.config.core.webhookDispatcherEnabled) this.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  /** Starts polling and listening. Idempotent. */
  start(): void {
    if (this.started || this.stopping) return;
    this.started = true;
    void this.listen();
    this.kick();
  }

  /**
   * Stops claiming, aborts the attempts in flight and hands their events back (they are sent
   * again at once by another instance or at the next start), then closes its connections.
   */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.shutdown.abort();
    await this.cycle;
    await Promise.allSettled([...this.inFlight]);
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => undefined);
    this.sender.close();
  }

  /**
   * One batch, awaited to the end: claims up to WEBHOOK_CONCURRENCY due events (of the given
   * stores only, when set) and attempts each. Returns how many it claimed. For tests and tools;
   * the running dispatcher refills continuously instead.
   */
  async runOnce(options: { storeIds?: number[] } = {}): Promise<number> {
    const claimed = await this.claim(this.concurrency, options.storeIds);
    const keys = await this.keysFor(claimed);
    await Promise.all(claimed.map((event) => this.attempt(event, keys.get(event.storeId))));
    return claimed.length;
  }

  /** Runs a fill now, or right after the one in progress. */
  private kick(): void {
    if (this.stopping || !this.started) return;
    if (this.cycle) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.cycle = this.fill()
      .catch((error: unknown) =>
        this.logger.warn(`webhook dispatch cycle failed: ${(error as Error).message}`),
      )
      .finally(() => {
        this.cycle = null;
        if (this.again) {
          this.again = false;
          this.kick();
        } else this.scheduleNextPoll();
      });
  }

  /** Claims events for every free slot and starts their attempts without waiting for them. */
  private async fill(): Promise<void> {
    while (!this.stopping) {
      const free = this.concurrency - this.inFlight.size;
      if (free <= 0) return;
      const claimed = await this.claim(free);
      if (claimed.length === 0) return;
      const keys = await this.keysFor(claimed);
      for (const event of claimed) {
        const running: Promise<void> = this.attempt(event, keys.get(event.storeId)).finally(() => {
          this.inFlight.delete(running);
          // A slot is free: due events may be waiting for it.
          this.kick();
        });
        this.inFlight.add(running);
      }
      if (claimed.length < free) return;
    }
  }

  private scheduleNextPoll(): void {
    if (this.stopping) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.listener && Date.now() >= this.listenRetryAt) void this.listen();
      this.kick();
    }, this.pollIntervalMs);
  }

  private claim(limit: number, storeIds?: number[]): Promise<ClaimedEvent[]> {
    return this.events.claimDue(this.dataSource.manager, {
      limit,
      leaseMs: this.leaseMs,
      leaseToken: randomUUID(),
      storeIds,
    });
  }

  private async keysFor(events: ClaimedEvent[]): Promise<Map<number, StoreSigningKeys>> {
    if (events.length === 0) return new Map();
    try {
      return await this.secrets.signingKeys(this.dataSource.manager, [
        ...new Set(events.map((event) => event.storeId)),
      ]);
    } catch (error) {
      // Each event's attempt then fails and is retried on the schedule like any other failure.
      this.logger.error(`webhook signing keys unavailable: ${(error as Error).message}`);
      return new Map();
    }
  }

  private async attempt(event: ClaimedEvent, keys: StoreSigningKeys | undefined): Promise<void> {
    const attemptedAt = new Date();
    let result: SendResult;
    if (!keys) {
      result = {
        delivered: false,
        statusCode: null,
        durationMs: 0,
        responsePrefix: null,
        error: 'store signing keys unavailable',
      };
    } else {
      try {
        const request = buildWebhookRequest(
          event,
          keys.privateToken,
          keys.webhookSecret,
          attemptedAt,
        );
        result = await this.sender.send(request, this.shutdown.signal);
      } catch (error) {
        this.logger.error(
          `webhook ${event.id}: could not build the request: ${(error as Error).message}`,
        );
        result = {
          delivered: false,
          statusCode: null,
          durationMs: 0,
          responsePrefix: null,
          error: 'internal error preparing the request',
        };
      }
    }

    const outcome = this.outcomeOf(event, result);
    const attempt = {
      attemptedAt,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      // PostgreSQL text cannot hold NUL; a receiver's answer may.
      responsePrefix: result.responsePrefix?.replaceAll(String.fromCharCode(0), '') ?? null,
      error: result.error,
    };
    try {
      await this.events.recordAttempt(this.dataSource.manager, event, attempt, outcome);
    } catch (error) {
      // The lease runs out and the event is attempted again: at least once, never lost.
      this.logger.error(
        `webhook ${event.id}: could not record the attempt: ${(error as Error).message}`,
      );
    }
    if (outcome.status !== 'delivered') {
      // No URL, query or body: a merchant's URL may carry its own secrets, the body a signature.
      this.logger.warn(
        {
          eventId: event.id,
          attempt: event.attempts + 1,
          statusCode: result.statusCode,
          error: result.error,
          outcome: outcome.status,
        },
        'webhook attempt not delivered',
      );
    }
  }

  private outcomeOf(event: ClaimedEvent, result: SendResult): AttemptOutcome {
    if (result.delivered) return { status: 'delivered' };
    if (this.shutdown.signal.aborted) return { status: 'released' };
    const attemptsMade = event.attempts + 1;
    if (attemptsMade > this.retrySchedule.length) return { status: 'failed' };
    return { status: 'pending', retryInSeconds: this.retrySchedule[attemptsMade - 1] };
  }

  /** A dedicated connection LISTENing on the outbox channel; polling covers the time it is down. */
  private async listen(): Promise<void> {
    if (this.stopping || this.listener || !this.config.database.url) return;
    this.listenRetryAt = Date.now() + LISTEN_RETRY_MS;
    const driver = this.dataSource.driver as PostgresDriver;
    const client = new driver.postgres.Client({
      connectionString: this.config.database.url,
      application_name: 'core-webhooks-listen',
    }) as ListenClient;
    this.listener = client;
    const drop = (error: Error): void => {
      if (this.listener !== client) return;
      this.listener = null;
      if (!this.stopping)
        this.logger.warn(
          `webhook LISTEN connection lost, polling only until it is back: ${error.message}`,
        );
      void client.end().catch(() => undefined);
    };
    client.on('notification', () => this.kick());
    client.on('error', drop);
    try {
      await client.connect();
      await client.query(`LISTEN ${WEBHOOK_PENDING_CHANNEL}`);
      if (this.stopping) await client.end().catch(() => undefined);
    } catch (error) {
      drop(error as Error);
    }
  }
}
