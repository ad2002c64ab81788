import 'reflect-metadata';
import { join } from 'node:path';
import { createDataSource, runMigrations, startEmbeddedPostgres } from '../../libs/database/src';

/**
 * Once per `jest` run: without DATABASE_URL, a throwaway embedded PostgreSQL; then migrations.
 * process.env set here reaches the test workers, which start after this.
 */
export default async function globalSetup(): Promise<void> {
  process.env.NODE_ENV = 'test';
  process.env.LOG_LEVEL ??= 'silent';
  // Each run gets its own Redis namespace: a fresh database restarts ids at 1, so keys must not meet an older run's.
  process.env.REDIS_KEY_PREFIX ??= `gw-test-${Date.now().toString(36)}-${process.pid}:`;
  process.env.DATA_DIR ??= join(__dirname, '../../.data/test');
  if (!process.env.DATABASE_URL) {
    const handle = await startEmbeddedPostgres({
      dir: join(__dirname, `../../.data/test-pg-${process.pid}`),
      port: 0,
      database: 'gateway_test',
      persistent: false,
    });
    process.env.DATABASE_URL = handle.url;
    (globalThis as { __embeddedPostgres?: typeof handle }).__embeddedPostgres = handle;
  }
  const dataSource = createDataSource(process.env.DATABASE_URL, 2, 'test-setup');
  await dataSource.initialize();
  await runMigrations(dataSource);
  await dataSource.destroy();
}
