import 'reflect-metadata';
import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AppConfig, ConfigError, loadConfig, redactUrl } from '@app/config';
import { createDataSource, EmbeddedPostgresHandle, runMigrations, startEmbeddedPostgres } from '@app/database';
import { AdminClient } from './lib/admin-client';

/**
 * `npm start`: the whole system on one machine. Without DATABASE_URL it runs an embedded
 * PostgreSQL under .data/, applies migrations, starts the core and the merchant API as child
 * processes, seeds a demo merchant on first start, and prints where everything is.
 */
const say = (line: string): void => {
  process.stdout.write(`[start] ${line}\n`);
};

interface DemoCredentials {
  merchantId: number;
  storeId: number;
  publicToken: string;
  privateToken: string;
}

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  const children: ChildProcess[] = [];
  let embedded: EmbeddedPostgresHandle | undefined;
  let stopping = false;
  const stop = async (code: number): Promise<void> => {
    if (stopping) return;
    stopping = true;
    say('stopping...');
    await Promise.all(children.map((child) => terminate(child)));
    if (embedded) {
      say('stopping embedded PostgreSQL');
      await embedded.stop().catch(() => undefined);
    }
    say('stopped');
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  try {
    let databaseUrl = config.database.url;
    if (!databaseUrl) {
      const port = Number(process.env.EMBEDDED_PG_PORT ?? 54329);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError('EMBEDDED_PG_PORT', 'must be a port number');
      embedded = await startEmbeddedPostgres({ dir: join(config.dataDir, 'pg'), port, database: 'gateway', persistent: true, log: say });
      databaseUrl = embedded.url;
    }
    say(`database: ${redactUrl(databaseUrl)}`);
    say(`redis: ${config.redis.url ? redactUrl(config.redis.url) : 'not configured (in-process cache, PostgreSQL nonces)'}`);

    const dataSource = createDataSource(databaseUrl, 2, 'launcher');
    await dataSource.initialize();
    await runMigrations(dataSource, say);
    const [{ count }] = (await dataSource.query('SELECT count(*)::int AS count FROM merchants')) as Array<{ count: number }>;
    await dataSource.destroy();

    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: config.dataDir };
    // The demo posts webhooks to loopback receivers, which production refuses (decisions.md section 5).
    if (embedded && env.WEBHOOK_ALLOW_PRIVATE === undefined) env.WEBHOOK_ALLOW_PRIVATE = 'true';
    const dist = resolve(__dirname, '..');
    children.push(launch('core', join(dist, 'apps/core/src/main.js'), env, () => void stop(1), () => stopping));
    const coreUrl = `http://127.0.0.1:${config.core.port}`;
    await waitReady('core', coreUrl);
    children.push(launch('merchant-api', join(dist, 'apps/merchant-api/src/main.js'), env, () => void stop(1), () => stopping));
    const scheme = config.merchantApi.tlsCertFile ? 'https' : 'http';
    const apiUrl = `${scheme}://127.0.0.1:${config.merchantApi.port}`;
    await waitReady('merchant-api', apiUrl);

    const demoFile = join(config.dataDir, 'demo-store.json');
    if (count === 0) {
      say('first start: seeding a demo merchant, store and payment details');
      writeFileSync(demoFile, JSON.stringify(await seedDemo(coreUrl, config.secrets.adminToken), null, 2) + '\n', { mode: 0o600 });
    }
    const demo = existsSync(demoFile) ? (JSON.parse(readFileSync(demoFile, 'utf8')) as DemoCredentials) : undefined;

    const lines = [
      '',
      '  Payment gateway is running',
      '',
      `  Merchant API    ${apiUrl}/api/v1`,
      `  API docs        ${apiUrl}/docs  (OpenAPI JSON: ${apiUrl}/docs-json)`,
      `  Core API        ${coreUrl}/core/v1`,
      `  Admin API       ${coreUrl}/admin/v1   bearer token: ${config.secrets.adminToken}`,
      `  Payment pages   ${config.core.publicBaseUrl}/pay/<transactionId>`,
      `  Health          ${apiUrl}/health/ready  ${coreUrl}/health/ready`,
      '',
      demo
        ? `  Demo store      merchantId ${demo.merchantId}, storeId ${demo.storeId}\n                  x-public-token: ${demo.publicToken}\n                  private token:  ${demo.privateToken}`
        : '  Demo store      (not seeded by this data directory; create one with `npm run admin -- --help`)',
      '',
      '  Ctrl-C stops everything; the data stays under ' + config.dataDir,
      '',
    ];
    process.stdout.write(lines.join('\n') + '\n');
  } catch (error) {
    process.stderr.write(`[start] failed: ${error instanceof Error ? error.message : String(error)}\n`);
    await stop(1);
  }
}

function launch(name: string, entry: string, env: NodeJS.ProcessEnv, onCrash: () => void, isStopping: () => boolean): ChildProcess {
  const child = spawn(process.execPath, [entry], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  child.on('exit', (code, signal) => {
    if (isStopping()) return;
    say(`${name} exited (${signal ?? code}); stopping the rest`);
    onCrash();
  });
  return child;
}

async function waitReady(name: string, baseUrl: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  say(`waiting for ${name} at ${baseUrl}/health/ready`);
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${baseUrl}/health/ready`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error(`${name} did not become ready within 60 s`);
}

function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      done();
    });
    child.kill('SIGTERM');
  });
}

async function seedDemo(coreUrl: string, adminToken: string): Promise<DemoCredentials> {
  const admin = new AdminClient(`${coreUrl}/admin/v1`, adminToken, 'seed');
  const merchant = await admin.request<{ id: number }>('POST', '/merchants', { name: 'Demo merchant' });
  const store = await admin.request<{ id: number; publicToken: string; privateToken: string }>('POST', `/merchants/${merchant.id}/stores`, {
    name: 'Demo store',
  });
  await admin.request('POST', '/payment-details', {
    cardName: 'DEMO RECEIVER',
    bankName: 'Demo Bank',
    cardNumber: '4111111111111111',
    phoneNumber: '+10000000000',
  });
  await admin.request('POST', '/payment-details', {
    cardName: 'DEMO RECEIVER TWO',
    bankName: 'Second Demo Bank',
    cardNumber: '5555555555554444',
    ibanNumber: 'DE89370400440532013000',
  });
  return { merchantId: merchant.id, storeId: store.id, publicToken: store.publicToken, privateToken: store.privateToken };
}

void main();
