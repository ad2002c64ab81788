import { createDataSource } from '@app/database';

/**
 * Webhook settings the webhook suites run their cores with: retries in under a second each,
 * a one-second timeout, fast polling. The schedule's total (about 8 s) is how long a receiver
 * may be down before an event is marked failed.
 */
export const WEBHOOK_TEST_ENV: Record<string, string> = {
  WEBHOOK_RETRY_SCHEDULE: '0.2,0.4,0.8,1,1,1,1,1,1,1',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_POLL_INTERVAL_MS: '50',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_DISPATCHER_ENABLED: 'true',
};
export const RETRY_SCHEDULE_TOTAL_MS = 8_400;

const WEBHOOK_SUITES_LOCK = 5_170_305;

/**
 * Every dispatcher on the test database works every store's events, with its own schedule and
 * timeout, so two webhook suites running at once would deliver, time and count each other's
 * notifications. Each suite holds this advisory lock from its first to its last test; jest's
 * other workers meanwhile run other suites.
 */
export async function holdWebhookSuiteLock(): Promise<() => Promise<void>> {
  const dataSource = createDataSource(process.env.DATABASE_URL!, 1, 'webhook-suite-lock');
  await dataSource.initialize();
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  await runner.query('SELECT pg_advisory_lock($1)', [WEBHOOK_SUITES_LOCK]);
  return async () => {
    await runner
      .query('SELECT pg_advisory_unlock($1)', [WEBHOOK_SUITES_LOCK])
      .catch(() => undefined);
    await runner.release();
    await dataSource.destroy();
  };
}
