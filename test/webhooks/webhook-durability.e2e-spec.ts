import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { WebhookEvent } from '@app/database';
import { verify } from '@app/signature';
import { WebhookDispatcherService } from '../../apps/core/src/webhooks/webhook-dispatcher.service';
import { WebhookSender } from '../../apps/core/src/webhooks/webhook-sender';
import { RunningApp, startCore } from '../support/system';
import {
  confirm,
  createStore,
  createTransaction,
  operatorMove,
  WebhookTestStore,
} from './support/fixtures';
import { WebhookReceiver } from './support/receiver';
import { holdWebhookSuiteLock, WEBHOOK_TEST_ENV } from './support/webhook-env';

/** Runs `task` over `items` with at most `width` at a time. */
async function inParallel<T>(
  items: T[],
  width: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await task(item);
    }),
  );
}

/**
 * A schedule of about 40 s: 1,000 status changes take a while on a busy test database (each
 * payin's success books the same store's balance), and the receiver stays down all that time.
 */
const DURABILITY_ENV = {
  ...WEBHOOK_TEST_ENV,
  WEBHOOK_RETRY_SCHEDULE: ['0.2', ...Array<string>(40).fill('1')].join(','),
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('webhook durability', () => {
  let releaseLock: () => Promise<void>;
  /** Writes the status changes; sends nothing, so each test decides which dispatchers run. */
  let writer: RunningApp;
  const dispatchers: RunningApp[] = [];
  const receivers: WebhookReceiver[] = [];
  const startReceiver = async (): Promise<WebhookReceiver> => {
    const receiver = await new WebhookReceiver().start();
    receivers.push(receiver);
    return receiver;
  };

  const startDispatcherCore = async (env: Record<string, string> = {}): Promise<RunningApp> => {
    const core = await startCore({ ...DURABILITY_ENV, ...env });
    dispatchers.push(core);
    return core;
  };

  beforeAll(async () => {
    releaseLock = await holdWebhookSuiteLock();
    writer = await startCore({ ...DURABILITY_ENV, WEBHOOK_DISPATCHER_ENABLED: 'false' });
  }, 300_000);

  afterEach(async () => {
    for (const core of dispatchers.splice(0)) await core.app.close();
    for (const receiver of receivers.splice(0)) await receiver.stop();
  });

  afterAll(async () => {
    await writer?.app.close();
    await releaseLock?.();
  });

  const eventsOf = (storeId: number): Promise<WebhookEvent[]> =>
    writer.app.get(DataSource).manager.find(WebhookEvent, { where: { storeId } });

  /** Every outbox event of the store reached the receiver; every request carried its own event's id. */
  const expectAllArrived = async (
    receiver: WebhookReceiver,
    store: WebhookTestStore,
    expected: number,
  ) => {
    const events = await eventsOf(store.storeId);
    expect(events).toHaveLength(expected);
    const received = receiver.byEvent();
    expect([...received.keys()].sort()).toEqual(events.map((event) => event.id).sort());
    for (const [eventId, requests] of received) {
      // Duplicates, if any, are the same notification: same id in the header and the signed body.
      for (const request of requests) {
        expect(request.fields.eventId).toBe(eventId);
        expect(verify(request.fields, store.privateToken, request.fields.signature)).toBe(true);
      }
    }
  };

  it('delivers all of 1,000 status changes made while the receiver was down, once it is back', async () => {
    const receiver = await startReceiver();
    const store = await createStore(writer, { url: receiver.url('/down-then-up'), method: 'post' });
    await receiver.stop();
    await startDispatcherCore();

    // 250 payins x 4 changes (created, confirmed, proof requested, success) = 1,000 notifications.
    const started = Date.now();
    const payins = Array.from({ length: 250 }, (_item, index) => index);
    await inParallel(payins, 10, async () => {
      const payin = await createTransaction(writer, store);
      await confirm(writer, payin.id);
      await operatorMove(writer, payin.id, 'proof_requested');
      await operatorMove(writer, payin.id, 'success');
    });
    const outageMs = Date.now() - started;
    expect(await eventsOf(store.storeId)).toHaveLength(1000);

    // Attempts were made while it was down, and every one was refused.
    const whileDown: Array<{ status_code: number | null; error: string }> = await writer.app
      .get(DataSource)
      .query(
        `SELECT d.status_code, d.error FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE e.store_id = $1`,
        [store.storeId],
      );
    expect(whileDown.length).toBeGreaterThan(0);
    expect(
      whileDown.every(
        (attempt) => attempt.status_code === null && attempt.error.includes('ECONNREFUSED'),
      ),
    ).toBe(true);

    await receiver.start();
    await receiver.waitFor(
      () => receiver.byEvent().size === 1000,
      'all 1,000 notifications',
      30_000,
    );
    await expectAllArrived(receiver, store, 1000);
    const deadline = Date.now() + 10_000;
    while (
      (await eventsOf(store.storeId)).some((event) => event.status !== 'delivered') &&
      Date.now() < deadline
    )
      await sleep(100);
    expect((await eventsOf(store.storeId)).filter((event) => event.status !== 'delivered')).toEqual(
      [],
    );
    // The schedule (about 40 s) outlasted the outage; were it shorter, the failed events would show above.
    expect(outageMs).toBeLessThan(40_000);
  }, 90_000);

  it('delivers each notification once with two dispatchers on one database', async () => {
    const receiver = await startReceiver();
    const store = await createStore(writer, {
      url: receiver.url('/two-dispatchers'),
      method: 'post',
    });
    const first = await startDispatcherCore({ WEBHOOK_CONCURRENCY: '10' });
    const second = await startDispatcherCore({ WEBHOOK_CONCURRENCY: '10' });
    const sends = [first, second].map((core) =>
      jest.spyOn(
        (core.app.get(WebhookDispatcherService) as unknown as { sender: WebhookSender }).sender,
        'send',
      ),
    );

    await inParallel(
      Array.from({ length: 300 }, (_item, index) => index),
      10,
      async () => {
        await createTransaction(writer, store);
      },
    );
    await receiver.waitFor(() => receiver.byEvent().size === 300, 'all 300 notifications');
    await sleep(500);

    await expectAllArrived(receiver, store, 300);
    expect(receiver.received).toHaveLength(300);
    expect([...receiver.byEvent().values()].every((requests) => requests.length === 1)).toBe(true);
    // Both took part: the once-only result is not one dispatcher doing all the work.
    const ours = sends.map(
      (send) =>
        send.mock.calls.filter(([request]) => request.url === receiver.url('/two-dispatchers'))
          .length,
    );
    expect(ours[0]).toBeGreaterThan(0);
    expect(ours[1]).toBeGreaterThan(0);
    expect(ours[0] + ours[1]).toBe(300);
  }, 60_000);

  it('writes notifications on a core whose dispatcher is off, and sends them on runOnce', async () => {
    const receiver = await startReceiver();
    const store = await createStore(writer, { url: receiver.url('/run-once'), method: 'post' });
    await createTransaction(writer, store);
    await sleep(300);
    expect(receiver.received).toHaveLength(0);
    expect((await eventsOf(store.storeId)).map((event) => event.status)).toEqual(['pending']);

    const dispatcher = writer.app.get(WebhookDispatcherService);
    expect(await dispatcher.runOnce({ storeIds: [store.storeId] })).toBe(1);
    expect(receiver.received).toHaveLength(1);
    expect((await eventsOf(store.storeId)).map((event) => event.status)).toEqual(['delivered']);
    expect(await dispatcher.runOnce({ storeIds: [store.storeId] })).toBe(0);
  });

  it('stops on shutdown without waiting out a hanging receiver, handing the event back untouched', async () => {
    const receiver = await startReceiver();
    receiver.responder = () => 'hang';
    const store = await createStore(writer, { url: receiver.url('/shutdown'), method: 'post' });
    const core = await startDispatcherCore({ WEBHOOK_TIMEOUT_MS: '30000' });
    await createTransaction(writer, store);
    await receiver.waitFor(() => receiver.received.length === 1, 'the attempt in flight');

    const closing = Date.now();
    dispatchers.splice(dispatchers.indexOf(core), 1);
    await core.app.close();
    expect(Date.now() - closing).toBeLessThan(5_000);

    const [event] = await eventsOf(store.storeId);
    expect(event).toMatchObject({
      status: 'pending',
      attempts: 0,
      lockedUntil: null,
      leaseToken: null,
    });
    expect(event.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now());
    const attempts: Array<{ error: string }> = await writer.app
      .get(DataSource)
      .query(`SELECT error FROM webhook_deliveries WHERE event_id = $1`, [event.id]);
    expect(attempts).toEqual([{ error: 'aborted: dispatcher shutting down' }]);
  });

  it('delivers every notification after the dispatcher process is killed mid-batch and restarted', async () => {
    const receiver = await startReceiver();
    const store = await createStore(writer, { url: receiver.url('/crash'), method: 'post' });
    for (let index = 0; index < 200; index += 1) await createTransaction(writer, store);
    expect(await eventsOf(store.storeId)).toHaveLength(200);

    // Answered at first; then requests get no answer, so a batch is in flight when the process dies.
    let answering = true;
    receiver.responder = () => (answering ? { status: 200, body: 'ok' } : 'hang');
    const env = { ...DURABILITY_ENV, WEBHOOK_CONCURRENCY: '10' };

    const first = spawnDispatcher(env);
    await waitForReady(first);
    await receiver.waitFor(() => receiver.received.length >= 40, 'the first batches');
    answering = false;
    await receiver.waitFor(() => receiver.received.length >= 50, 'a batch in flight');
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));

    const leased = await writer.app
      .get(DataSource)
      .query(
        `SELECT count(*)::int AS n FROM webhook_events WHERE store_id = $1 AND status = 'pending' AND locked_until > now()`,
        [store.storeId],
      );
    expect(leased[0].n).toBeGreaterThan(0);

    answering = true;
    const second = spawnDispatcher(env);
    try {
      await waitForReady(second);
      await receiver.waitFor(
        () => receiver.byEvent().size === 200,
        'all 200 notifications after the restart',
        30_000,
      );
      const deadline = Date.now() + 15_000;
      while (
        (await eventsOf(store.storeId)).some((event) => event.status !== 'delivered') &&
        Date.now() < deadline
      )
        await sleep(100);
    } finally {
      second.kill('SIGTERM');
      await new Promise((resolve) => second.once('exit', resolve));
    }
    expect((await eventsOf(store.storeId)).filter((event) => event.status !== 'delivered')).toEqual(
      [],
    );
    await expectAllArrived(receiver, store, 200);
    // The ones in flight at the crash came again, with the same id.
    expect([...receiver.byEvent().values()].some((requests) => requests.length > 1)).toBe(true);
  }, 90_000);
});

function spawnDispatcher(env: Record<string, string>): ChildProcess {
  const root = join(__dirname, '../..');
  return spawn(
    process.execPath,
    [
      '-r',
      'ts-node/register/transpile-only',
      '-r',
      'tsconfig-paths/register',
      join(__dirname, 'support/dispatcher-worker.ts'),
    ],
    {
      cwd: root,
      env: {
        ...process.env,
        ...env,
        LOG_LEVEL: 'silent',
        DATA_DIR: process.env.DATA_DIR ?? join(root, '.data/test'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
}

function waitForReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('dispatcher ready')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) =>
      reject(new Error(`dispatcher exited with ${code} before it was ready: ${output}`)),
    );
    setTimeout(
      () => reject(new Error(`dispatcher not ready after 60 s: ${output}`)),
      60_000,
    ).unref();
  });
}
