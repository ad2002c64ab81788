import { ConfigError, loadConfig } from '@app/config';
import { AdminClient } from './lib/admin-client';
import { runAdminCli } from './lib/admin-program';

/**
 * `npm run admin -- <command>`: the operator CLI over the core's admin API. The core URL comes
 * from CORE_URL (or the default CORE_PORT), the admin token from ADMIN_TOKEN or `.data/secrets.json`.
 */
async function main(): Promise<void> {
  let code: number;
  try {
    const config = loadConfig();
    code = await runAdminCli(process.argv.slice(2), {
      client: ({ url, actor }) =>
        new AdminClient(
          `${(url ?? config.merchantApi.coreUrl).replace(/\/+$/, '')}/admin/v1`,
          config.secrets.adminToken,
          actor ?? process.env.ADMIN_ACTOR ?? 'cli',
        ),
      out: (text) => process.stdout.write(text),
      err: (text) => process.stderr.write(text),
    });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    code = 1;
  }
  process.exitCode = code;
}

void main();
