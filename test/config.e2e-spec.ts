import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..');

/** Starts an app's real entry point the way an operator would, with one bad variable. */
function startWith(app: 'core' | 'merchant-api', env: Record<string, string>) {
  return spawnSync(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', join(root, `apps/${app}/src/main.ts`)],
    { cwd: root, env: { ...process.env, TS_NODE_PROJECT: join(root, 'tsconfig.json'), ...env }, encoding: 'utf8', timeout: 60_000 },
  );
}

describe('configuration at boot', () => {
  it.each([
    ['core', { CORE_PORT: 'three thousand' }, 'configuration error: CORE_PORT must be a whole number, got "three thousand"'],
    ['merchant-api', { RATE_LIMIT_POINTS: '0' }, 'configuration error: RATE_LIMIT_POINTS must be at least 1, got 0'],
    ['core', { DATABASE_URL: '' }, 'configuration error: DATABASE_URL must be set'],
  ] as const)('%s refuses %j with one line naming the variable and exit code 1', (app, env, line) => {
    const result = startWith(app, env);
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining(line)]);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
