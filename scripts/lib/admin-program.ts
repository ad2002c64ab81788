import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { AdminApiError, AdminClient } from './admin-client';

/**
 * The operator CLI (`npm run admin -- <command>`): one command per admin API call. Built as a
 * function of its client and output, so tests drive it in-process against a real core.
 */
export interface AdminCliIo {
  /** Makes the client once the global options (--url, --actor) are known. */
  client(options: { url?: string; actor?: string }): AdminClient;
  out(text: string): void;
  err(text: string): void;
}

function positiveInt(value: string): number {
  if (!/^[1-9]\d{0,9}$/.test(value)) throw new InvalidArgumentError('must be a positive integer');
  return Number(value);
}

function nonNegativeInt(value: string): number {
  if (!/^\d{1,10}$/.test(value)) throw new InvalidArgumentError('must be a whole number');
  return Number(value);
}

function onOff(value: string): boolean {
  if (/^(on|true|yes|1)$/i.test(value)) return true;
  if (/^(off|false|no|0)$/i.test(value)) return false;
  throw new InvalidArgumentError('must be on or off');
}

/**
 * `none` (or `default`) clears a setting, sent as null. Parsers keep the word itself: commander
 * turns a parser's null into an empty string, so the null is made in the action (`cleared`).
 */
const CLEAR_WORDS = ['none', 'default'];
function orClear<T>(parse: (value: string) => T): (value: string) => T | string {
  return (value) => (CLEAR_WORDS.includes(value) ? value : parse(value));
}

function cleared<T>(value: T | string | undefined): T | null | undefined {
  return typeof value === 'string' && CLEAR_WORDS.includes(value) ? null : (value as T | undefined);
}

const asIs = (value: string): string => value;

/** Drops options the operator did not give, so PATCH bodies carry only the intended changes. */
function given(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

export function buildAdminProgram(io: AdminCliIo): Command {
  const program = new Command('admin')
    .description(
      'Operator CLI of the payment gateway: merchants, stores, balances, payment details, transactions, audit (the core admin API)',
    )
    .option(
      '--url <coreUrl>',
      'core base URL (default: CORE_URL, else http://127.0.0.1:<CORE_PORT>)',
    )
    .option(
      '--actor <name>',
      'operator name recorded in the audit log (default: ADMIN_ACTOR, else cli)',
    )
    .configureOutput({ writeOut: (text) => io.out(text), writeErr: (text) => io.err(text) })
    .exitOverride()
    .showHelpAfterError(false);

  const call = (method: string, path: string, body?: unknown) => async () => {
    const { url, actor } = program.opts<{ url?: string; actor?: string }>();
    const result = await io.client({ url, actor }).request<unknown>(method, path, body);
    io.out(JSON.stringify(result, null, 2) + '\n');
  };
  const run = (action: () => Promise<void>) => action();

  const merchant = program.command('merchant').description('merchants and their access flags');
  merchant
    .command('create')
    .description('create a merchant, all access enabled')
    .argument('<name>', 'merchant name')
    .action((name: string) => run(call('POST', '/merchants', { name })));
  merchant
    .command('show')
    .description('show a merchant with its flags and stores')
    .argument('<merchantId>', 'merchant id', positiveInt)
    .action((id: number) => run(call('GET', `/merchants/${id}`)));
  merchant
    .command('flags')
    .description('set access flags')
    .argument('<merchantId>', 'merchant id', positiveInt)
    .option('--payin <on|off>', 'payin access', onOff)
    .option('--payout <on|off>', 'payout access', onOff)
    .option('--account <on|off>', 'account (balance list) access', onOff)
    .action((id: number, options: { payin?: boolean; payout?: boolean; account?: boolean }) =>
      run(
        call(
          'PATCH',
          `/merchants/${id}`,
          given({
            payinEnabled: options.payin,
            payoutEnabled: options.payout,
            accountEnabled: options.account,
          }),
        ),
      ),
    );

  const store = program.command('store').description('stores: tokens and settings');
  store
    .command('create')
    .description('create a store; prints its public and private tokens and webhook secret')
    .argument('<merchantId>', 'merchant id', positiveInt)
    .argument('<name>', 'store name')
    .option('--currency <code>', '3-letter currency (default: DEFAULT_CURRENCY)')
    .action((merchantId: number, name: string, options: { currency?: string }) =>
      run(
        call(
          'POST',
          `/merchants/${merchantId}/stores`,
          given({ name, currency: options.currency }),
        ),
      ),
    );
  store
    .command('show')
    .description('show a store with its tokens, settings and balance')
    .argument('<storeId>', 'store id', positiveInt)
    .action((id: number) => run(call('GET', `/stores/${id}`)));
  store
    .command('rotate')
    .description('issue new public and private tokens; the old ones stop working at once')
    .argument('<storeId>', 'store id', positiveInt)
    .action((id: number) => run(call('POST', `/stores/${id}/rotate-tokens`)));
  store
    .command('settings')
    .description('change store settings')
    .argument('<storeId>', 'store id', positiveInt)
    .option('--currency <code>', '3-letter currency')
    .option('--exchange-rate <rate>', 'exchange rate applied to new transactions')
    .option('--fee-percent <percent>', 'payin fee percent, booked as payin_fee')
    .option(
      '--ttl <seconds|default>',
      'payin lifetime in seconds; "default" restores PAYIN_TTL_SECONDS',
      orClear(positiveInt),
    )
    .option('--replay-protection <on|off>', 'require timestamp and nonce on signed requests', onOff)
    .action(
      (
        id: number,
        options: {
          currency?: string;
          exchangeRate?: string;
          feePercent?: string;
          ttl?: number | string;
          replayProtection?: boolean;
        },
      ) =>
        run(
          call(
            'PATCH',
            `/stores/${id}`,
            given({
              currency: options.currency,
              exchangeRate: options.exchangeRate,
              payinFeePercent: options.feePercent,
              payinTtlSeconds: cleared(options.ttl),
              requireReplayProtection: options.replayProtection,
            }),
          ),
        ),
    );

  program
    .command('adjust')
    .description('signed balance adjustment of a store (flow adjustment)')
    .argument('<storeId>', 'store id', positiveInt)
    .argument('<amount>', 'signed amount with at most 2 decimals, e.g. 100 or -12.50')
    .option('--comment <text>', 'why')
    .action((storeId: number, amount: string, options: { comment?: string }) =>
      run(
        call('POST', `/stores/${storeId}/adjustments`, given({ amount, comment: options.comment })),
      ),
    );

  const details = program
    .command('payment-details')
    .description('the pool of receiving details payins draw from');
  details
    .command('add')
    .description('add receiving details')
    .option('--card-name <name>', 'card holder name')
    .option('--bank-name <name>', 'bank name')
    .option('--card-number <digits>', 'card number')
    .option('--phone <number>', 'phone number')
    .option('--qr <payload>', 'QR code payload')
    .option('--account <number>', 'account number')
    .option('--iban <iban>', 'IBAN')
    .option('--min <amount>', 'smallest payin amount')
    .option('--max <amount>', 'largest payin amount')
    .option('--max-pending <n>', 'at most this many pending payins at once', nonNegativeInt)
    .option('--merchant <merchantId>', 'reserve for one merchant', positiveInt)
    .action((options: Record<string, string | number | undefined>) =>
      run(
        call(
          'POST',
          '/payment-details',
          given({
            cardName: options.cardName,
            bankName: options.bankName,
            cardNumber: options.cardNumber,
            phoneNumber: options.phone,
            qrCode: options.qr,
            accountNumber: options.account,
            ibanNumber: options.iban,
            minAmount: options.min,
            maxAmount: options.max,
            maxPending: options.maxPending,
            merchantId: options.merchant,
          }),
        ),
      ),
    );
  details
    .command('update')
    .description('enable, disable or change limits of receiving details')
    .argument('<detailId>', 'payment detail id', positiveInt)
    .option('--enable', 'let payins draw it')
    .option('--disable', 'stop payins from drawing it')
    .option('--min <amount|none>', 'smallest payin amount', orClear(asIs))
    .option('--max <amount|none>', 'largest payin amount', orClear(asIs))
    .option('--max-pending <n|none>', 'pending payins at once', orClear(nonNegativeInt))
    .action(
      (
        id: number,
        options: {
          enable?: boolean;
          disable?: boolean;
          min?: string;
          max?: string;
          maxPending?: number | string;
        },
      ) => {
        if (options.enable && options.disable)
          throw new InvalidArgumentError('--enable and --disable exclude each other');
        const enabled = options.enable ? true : options.disable ? false : undefined;
        return run(
          call(
            'PATCH',
            `/payment-details/${id}`,
            given({
              enabled,
              minAmount: cleared(options.min),
              maxAmount: cleared(options.max),
              maxPending: cleared(options.maxPending),
            }),
          ),
        );
      },
    );
  details
    .command('list')
    .description('list the pool (card numbers masked) with pending counts')
    .option('--merchant <merchantId>', 'only details reserved for this merchant', positiveInt)
    .action((options: { merchant?: number }) =>
      run(
        call(
          'GET',
          options.merchant ? `/payment-details?merchantId=${options.merchant}` : '/payment-details',
        ),
      ),
    );

  const transaction = program.command('transaction').description('payins and payouts');
  transaction
    .command('show')
    .description('the full record, unmasked, with status history and balance changes')
    .argument('<transactionId>', 'transaction UUID')
    .action((id: string) => run(call('GET', `/transactions/${encodeURIComponent(id)}`)));
  transaction
    .command('status')
    .description(
      'operator move: payin processing → success|failed|proof_requested, proof_requested → success|failed; payout pending → processing → success|failed',
    )
    .argument('<transactionId>', 'transaction UUID')
    .argument('<status>', 'target status')
    .action((id: string, status: string) =>
      run(call('POST', `/transactions/${encodeURIComponent(id)}/status`, { status })),
    );

  program
    .command('webhook-resend')
    .description('send a webhook notification again')
    .argument('<eventId>', 'webhook event UUID')
    .action((eventId: string) =>
      run(call('POST', `/webhooks/${encodeURIComponent(eventId)}/resend`)),
    );

  program
    .command('audit')
    .description('the audit log, newest first')
    .option('--limit <n>', 'how many entries (1..500, default 50)', positiveInt)
    .option('--target-type <type>', 'merchant, store, payment_detail, transaction, ...')
    .option('--target-id <id>', 'id of the target')
    .action((options: { limit?: number; targetType?: string; targetId?: string }) => {
      const query = new URLSearchParams(
        given({
          limit: options.limit,
          targetType: options.targetType,
          targetId: options.targetId,
        }) as Record<string, string>,
      );
      return run(call('GET', `/audit${query.size ? `?${query.toString()}` : ''}`));
    });

  return program;
}

/**
 * Runs one command line; answers the process exit code. A refused call prints the API's error
 * code (and body) to stderr and answers 1; so does a usage error.
 */
export async function runAdminCli(argv: string[], io: AdminCliIo): Promise<number> {
  const program = buildAdminProgram(io);
  if (argv.length === 0) {
    program.outputHelp();
    return 0;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are "errors" that succeed; commander already printed the usage problem.
      return error.exitCode;
    }
    if (error instanceof InvalidArgumentError) {
      io.err(`error: ${error.message}\n`);
      return 1;
    }
    if (error instanceof AdminApiError) {
      const body = error.body as { message?: unknown } | undefined;
      const code = typeof body?.message === 'string' ? body.message : `HTTP ${error.status}`;
      io.err(
        `error: ${code} (HTTP ${error.status})\n${JSON.stringify(error.body ?? null, null, 2)}\n`,
      );
      return 1;
    }
    // Duck-typed: fetch's TypeError may come from another realm (jest's VM), where instanceof fails.
    const failure = error as { name?: unknown; message?: unknown; cause?: unknown };
    if (failure?.name === 'TypeError' && failure.message === 'fetch failed') {
      io.err(
        `error: cannot reach the core admin API (${String(failure.cause ?? failure.message)})\n`,
      );
      return 1;
    }
    io.err(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
