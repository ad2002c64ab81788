import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { AdminClient } from '../../scripts/lib/admin-client';
import { runAdminCli } from '../../scripts/lib/admin-program';
import { coreKit } from '../core/core-test-kit';
import { RunningApp, startCore } from '../support/system';

describe('operator CLI (npm run admin)', () => {
  let core: RunningApp;
  let kit: ReturnType<typeof coreKit>;

  beforeAll(async () => {
    core = await startCore();
    kit = coreKit(core);
  });
  afterAll(() => core.app.close());

  /** Runs one command line in-process against the real core, as `npm run admin -- ...` would. */
  async function cli(argv: string[], token = core.config.secrets.adminToken) {
    let out = '';
    let err = '';
    const code = await runAdminCli(argv, {
      client: ({ url, actor }) =>
        new AdminClient(`${url ?? core.url}/admin/v1`, token, actor ?? 'cli'),
      out: (text) => (out += text),
      err: (text) => (err += text),
    });
    const json = () => JSON.parse(out) as Record<string, unknown> & { id: number };
    return { code, out, err, json };
  }

  it('lists every command in --help', async () => {
    const { code, out } = await cli(['--help']);
    expect(code).toBe(0);
    for (const command of [
      'merchant',
      'store',
      'adjust',
      'payment-details',
      'transaction',
      'webhook-resend',
      'audit',
    ])
      expect(out).toContain(command);
    const store = await cli(['store', '--help']);
    for (const sub of ['create', 'show', 'rotate', 'settings']) expect(store.out).toContain(sub);
  });

  it('onboards a merchant end to end and prints JSON for each call', async () => {
    const merchant = await cli(['merchant', 'create', 'CLI Merchant']);
    expect(merchant.code).toBe(0);
    const merchantId = merchant.json().id;
    expect(merchant.json()).toMatchObject({ name: 'CLI Merchant', payinEnabled: true });

    const flags = await cli(['merchant', 'flags', String(merchantId), '--payout', 'off']);
    expect(flags.json()).toMatchObject({ payinEnabled: true, payoutEnabled: false });

    const store = await cli([
      'store',
      'create',
      String(merchantId),
      'CLI Store',
      '--currency',
      'EUR',
    ]);
    expect(store.json()).toMatchObject({
      merchantId,
      currency: 'EUR',
      publicToken: expect.stringMatching(/^pk_/),
      privateToken: expect.stringMatching(/^sk_/),
    });
    const storeId = store.json().id;

    const settings = await cli([
      'store',
      'settings',
      String(storeId),
      '--fee-percent',
      '1.5',
      '--ttl',
      '120',
      '--replay-protection',
      'on',
    ]);
    expect(settings.err).toBe('');
    expect(settings.json()).toMatchObject({
      payinFeePercent: '1.50',
      payinTtlSeconds: 120,
      requireReplayProtection: true,
    });
    const reset = await cli(['store', 'settings', String(storeId), '--ttl', 'default']);
    expect(reset.json()).toMatchObject({ payinTtlSeconds: null });

    const rotated = await cli(['store', 'rotate', String(storeId)]);
    expect(rotated.json().publicToken).not.toBe(store.json().publicToken);

    const adjusted = await cli([
      'adjust',
      String(storeId),
      '250.75',
      '--comment',
      'opening balance',
    ]);
    expect(adjusted.json()).toMatchObject({
      flow: 'adjustment',
      amount: '250.75',
      balanceAfter: '250.75',
      comment: 'opening balance',
    });
    const shown = await cli(['store', 'show', String(storeId)]);
    expect(shown.json()).toMatchObject({
      balance: '250.75',
      publicToken: rotated.json().publicToken,
    });

    const detail = await cli([
      'payment-details',
      'add',
      '--card-name',
      'CLI',
      '--card-number',
      '4111111111111111',
      '--max',
      '1000',
      '--max-pending',
      '3',
      '--merchant',
      String(merchantId),
    ]);
    expect(detail.json()).toMatchObject({
      cardNumber: '411111******1111',
      maxAmount: '1000.00',
      maxPending: 3,
      merchantId,
    });
    const updated = await cli([
      'payment-details',
      'update',
      String(detail.json().id),
      '--max',
      'none',
      '--disable',
    ]);
    expect(updated.json()).toMatchObject({ maxAmount: null, enabled: false });
    const listed = await cli(['payment-details', 'list', '--merchant', String(merchantId)]);
    expect(JSON.parse(listed.out)).toHaveLength(1);
  });

  it('moves and shows a transaction, and the audit names the --actor', async () => {
    const store = await kit.storeWithDetails();
    const { body } = await kit.createPayin(store.storeId).expect(200);
    await kit.move('payins', body.transactionId, 'confirm', store.storeId).expect(200);
    const moved = await cli([
      '--actor',
      'alice',
      'transaction',
      'status',
      body.transactionId,
      'success',
    ]);
    expect(moved.code).toBe(0);
    expect(moved.json()).toEqual({ transactionId: body.transactionId, status: 'success' });
    const shown = await cli(['transaction', 'show', body.transactionId]);
    expect(shown.json()).toMatchObject({
      status: 'success',
      payment: { cardNumber: '4111111111111111' },
    });
    const audit = await cli([
      'audit',
      '--target-type',
      'transaction',
      '--target-id',
      body.transactionId,
      '--limit',
      '5',
    ]);
    expect(
      (audit.json() as unknown as { items: Array<{ actor: string; action: string }> }).items,
    ).toEqual([expect.objectContaining({ actor: 'alice', action: 'transaction.status' })]);
  });

  it('exits non-zero with the API error code on a refused call, a bad token, a usage error or an unreachable core', async () => {
    const store = await kit.ops.createStore();
    const refused = await cli(['adjust', String(store.storeId), '-5']);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('ERROR_INSUFFICIENT_BALANCE');
    expect(refused.out).toBe('');

    const conflict = await cli([
      'transaction',
      'status',
      '00000000-0000-4000-8000-000000000000',
      'success',
    ]);
    expect(conflict.code).toBe(1);
    expect(conflict.err).toContain('ERROR_TRANSACTION_NOT_FOUND');

    const badToken = await cli(['merchant', 'show', '1'], 'adm_definitely_not_the_token');
    expect(badToken.code).toBe(1);
    expect(badToken.err).toContain('ERROR_ADMIN_TOKEN_INVALID');

    const usage = await cli(['merchant', 'show', 'abc']);
    expect(usage.code).toBe(1);
    expect(usage.err).toContain('positive integer');
    const unknown = await cli(['frobnicate']);
    expect(unknown.code).toBe(1);

    const down = await cli(['--url', 'http://127.0.0.1:9', 'merchant', 'show', '1']);
    expect(down.code).toBe(1);
    expect(down.err).toContain('cannot reach the core');
  });

  it('runs as a script: the entry point reads the configuration and prints help', () => {
    const result = spawnSync(
      process.execPath,
      [
        '-r',
        'ts-node/register/transpile-only',
        '-r',
        'tsconfig-paths/register',
        join(__dirname, '../../scripts/admin.ts'),
        '--help',
      ],
      {
        cwd: join(__dirname, '../..'),
        env: { ...process.env, TS_NODE_PROJECT: 'tsconfig.json' },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('payment-details');
  });
});
