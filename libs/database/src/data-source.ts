import { DataSource, DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

/** One definition of the connection, used by both apps, the launcher, the CLI and the tests. */
export function dataSourceOptions(url: string, poolSize = 10, applicationName = 'payment-gateway'): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    logging: ['error'],
    applicationName,
    extra: { max: poolSize },
  };
}

export function createDataSource(url: string, poolSize?: number, applicationName?: string): DataSource {
  return new DataSource(dataSourceOptions(url, poolSize, applicationName));
}

/**
 * Applies pending migrations, reporting each one. Safe to run from several processes at once.
 * Needs a pool of at least two: one connection holds the advisory lock while TypeORM migrates on another.
 */
export async function runMigrations(dataSource: DataSource, log: (line: string) => void = () => {}): Promise<void> {
  // An advisory lock keeps two processes starting at once from applying the same migration twice.
  if (((dataSource.options as { extra?: { max?: number } }).extra?.max ?? 10) < 2) {
    throw new Error('runMigrations needs a pool of at least 2 connections');
  }
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock(727274)');
    const pending = await dataSource.showMigrations();
    if (!pending) {
      log('migrations: database is up to date');
      return;
    }
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    for (const migration of applied) log(`migrations: applied ${migration.name}`);
  } finally {
    await runner.query('SELECT pg_advisory_unlock(727274)').catch(() => undefined);
    await runner.release();
  }
}
