import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { AppConfig, APP_CONFIG } from '@app/config';
import { Transaction } from '@app/database';
import { queryRows } from '../common/sql';
import { TransactionTransitionsService } from '../transactions/transaction-transitions.service';

const BATCH_SIZE = 100;

/**
 * Expires pending payins whose `expiresAt` has passed, every EXPIRY_INTERVAL_MS. Each batch
 * claims its rows with FOR UPDATE SKIP LOCKED, so any number of core instances can run it at
 * once without expiring a payin twice or waiting on each other; a payin a merchant is moving
 * right now is skipped and seen again next round. Overdue payins are found by the database
 * clock, so after downtime the first rounds simply catch up.
 */
@Injectable()
export class ExpiryService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ExpiryService.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;
  private stopped = false;

  constructor(
    @InjectEntityManager() private readonly manager: EntityManager,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly transitions: TransactionTransitionsService,
  ) {}

  onApplicationBootstrap(): void {
    this.schedule();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** Expires everything overdue now, batch after batch; returns how many this call expired. */
  async runOnce(): Promise<number> {
    let total = 0;
    for (;;) {
      const expired = await this.expireBatch();
      total += expired;
      if (expired < BATCH_SIZE || this.stopped) return total;
    }
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.tick(), this.config.core.expiryIntervalMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    this.running = this.runOnce();
    try {
      const expired = await this.running;
      if (expired > 0) this.logger.log(`expired ${expired} overdue payin(s)`);
    } catch (error) {
      this.logger.error(
        `expiry round failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      this.running = undefined;
      this.schedule();
    }
  }

  private expireBatch(): Promise<number> {
    return this.manager.transaction(async (manager) => {
      const due = await queryRows<{ id: string }>(
        manager,
        `SELECT id FROM transactions
          WHERE type = 'payin' AND status = 'pending' AND expires_at <= now()
          ORDER BY expires_at
          LIMIT $1
          FOR UPDATE SKIP LOCKED`,
        [BATCH_SIZE],
      );
      for (const { id } of due) {
        const transaction = await manager.findOneByOrFail(Transaction, { id });
        await this.transitions.apply(manager, transaction, { kind: 'expire' }, 'system');
      }
      return due.length;
    });
  }
}
