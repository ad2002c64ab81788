import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';

const INTERVAL_MS = 5 * 60_000;
const BATCH = 5_000;

/**
 * Deletes the merchant API's expired bookkeeping (idempotency keys past 24 h, nonces past the
 * replay window) in small batches, so the tables stay the size of a day's traffic. Every
 * instance runs it; the deletes are idempotent and never block requests for long.
 */
@Injectable()
export class HousekeepingService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(HousekeepingService.name);
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly dataSource: DataSource) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep(), INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Returns how many rows went. */
  async sweep(): Promise<number> {
    let removed = 0;
    try {
      for (const table of ['idempotency_keys', 'used_nonces']) {
        const [, count] = (await this.dataSource.query(
          `DELETE FROM ${table} WHERE ctid IN (SELECT ctid FROM ${table} WHERE expires_at < now() LIMIT ${BATCH})`,
        )) as [unknown, number];
        removed += count;
      }
    } catch (error) {
      this.logger.warn(`bookkeeping cleanup failed: ${(error as Error).message}`);
    }
    return removed;
  }
}
