import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { redactUrl } from '@app/config';
import { createDataSource, runMigrations, startEmbeddedPostgres } from '@app/database';

/** The run's own database: created empty, migrated, and thrown away at the end. */
export interface BenchDatabase {
  url: string;
  /** "embedded PostgreSQL 17.x" or "PostgreSQL 15.x at host:port". */
  description: string;
  /** Processes of the embedded cluster (postmaster and its children), for pinning. Empty when external. */
  pids(): number[];
  dispose(): Promise<void>;
}

/**
 * With DATABASE_URL: a new database `bench_<time>_<pid>` on that server, dropped afterwards.
 * Without: an embedded PostgreSQL in a temporary directory, deleted afterwards.
 */
export async function freshDatabase(options: {
  keep: boolean;
  log: (line: string) => void;
}): Promise<BenchDatabase> {
  const serverUrl = process.env.DATABASE_URL?.trim();
  let database: BenchDatabase;
  if (serverUrl) {
    const name = `bench_${Date.now().toString(36)}_${process.pid}`;
    await withConnection(serverUrl, (db) => db.query(`CREATE DATABASE "${name}"`));
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    database = {
      url: url.toString(),
      description: `PostgreSQL ${await serverVersion(url.toString())} at ${url.host} (DATABASE_URL), database ${name}`,
      pids: () => [],
      dispose: async () => {
        if (options.keep) return options.log(`kept database ${redactUrl(url.toString())}`);
        await withConnection(serverUrl, (db) =>
          db.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
        );
      },
    };
  } else {
    const dir = join(tmpdir(), `gateway-bench-pg-${process.pid}-${Date.now().toString(36)}`);
    const handle = await startEmbeddedPostgres({
      dir,
      port: 0,
      database: 'bench',
      persistent: options.keep,
      log: options.log,
    });
    database = {
      url: handle.url,
      description: `embedded PostgreSQL ${await serverVersion(handle.url)} (fresh cluster in ${dir})`,
      pids: () => clusterPids(dir),
      dispose: () => handle.stop(),
    };
  }
  const dataSource = createDataSource(database.url, 2, 'bench-migrate');
  await dataSource.initialize();
  await runMigrations(dataSource, options.log);
  await dataSource.destroy();
  return database;
}

async function serverVersion(url: string): Promise<string> {
  const rows = await withConnection(url, (db) =>
    db.query<Array<{ server_version: string }>>('SHOW server_version'),
  );
  return rows[0].server_version.split(' ')[0];
}

/** The postmaster (first line of postmaster.pid) and its children, read from /proc. */
function clusterPids(dir: string): number[] {
  let postmaster: number;
  try {
    postmaster = Number(readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return [];
  }
  const pids = [postmaster];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 4 of /proc/<pid>/stat is the parent pid; the command may contain spaces, so split after ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === postmaster) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** A short-lived connection for the harness's own SQL (database creation, seeding, invariant checks). */
export async function withConnection<T>(
  url: string,
  work: (db: DataSource) => Promise<T>,
): Promise<T> {
  const db = new DataSource({ type: 'postgres', url, applicationName: 'bench', extra: { max: 1 } });
  await db.initialize();
  try {
    return await work(db);
  } finally {
    await db.destroy();
  }
}
