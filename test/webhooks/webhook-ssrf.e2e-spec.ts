import { DataSource } from 'typeorm';
import { WebhookDelivery } from '@app/database';
import { WebhookSender } from '../../apps/core/src/webhooks/webhook-sender';
import { admin } from '../support/factories';
import { RunningApp, startCore } from '../support/system';
import { createStore, createTransaction, eventsOfStore } from './support/fixtures';
import { WebhookReceiver } from './support/receiver';
import { holdWebhookSuiteLock, WEBHOOK_TEST_ENV } from './support/webhook-env';

/**
 * A loopback listener on IPv4 and one on IPv6 stand in for internal services. With private
 * addresses not allowed, no spelling of their addresses may open a single connection to them.
 */
describe('webhook SSRF guard', () => {
  let releaseLock: () => Promise<void>;
  const v4 = new WebhookReceiver('127.0.0.1');
  const v6 = new WebhookReceiver('::1');

  beforeAll(async () => {
    releaseLock = await holdWebhookSuiteLock();
    await v4.start();
    await v6.start();
  }, 300_000);

  afterAll(async () => {
    await v4.stop();
    await v6.stop();
    await releaseLock?.();
  });

  const loopbackSpellings = (): string[] => {
    const p4 = v4.listeningPort;
    const p6 = v6.listeningPort;
    return [
      `http://127.0.0.1:${p4}/hook`,
      `https://127.0.0.1:${p4}/hook`,
      `http://localhost:${p4}/hook`,
      `http://2130706433:${p4}/hook`,
      `http://0x7f.1:${p4}/hook`,
      `http://0x7f000001:${p4}/hook`,
      `http://017700000001:${p4}/hook`,
      `http://0177.0.0.1:${p4}/hook`,
      `http://127.1:${p4}/hook`,
      `http://0.0.0.0:${p4}/hook`,
      `http://0:${p4}/hook`,
      `http://[::ffff:127.0.0.1]:${p4}/hook`,
      `http://[::ffff:7f00:1]:${p4}/hook`,
      `http://[::1]:${p6}/hook`,
      `http://[0:0:0:0:0:0:0:1]:${p6}/hook`,
      `http://[::]:${p6}/hook`,
    ];
  };

  it('refuses every spelling of a loopback address at connect time, with 0 connections', async () => {
    const sender = new WebhookSender({ timeoutMs: 1000, allowPrivate: false });
    try {
      for (const url of loopbackSpellings()) {
        const result = await sender.send({
          url,
          method: 'POST',
          headers: { 'x-webhook-id': 'ssrf' },
          body: '{}',
        });
        expect({ url, ...result }).toMatchObject({
          url,
          delivered: false,
          statusCode: null,
          error: expect.stringContaining('not allowed for webhooks'),
        });
      }
      // A name is refused after resolution, on the address it resolved to: the connect-time lookup at work.
      const byName = await sender.send({
        url: `http://localhost:${v4.listeningPort}/hook`,
        method: 'GET',
        headers: {},
      });
      expect(byName.error).toBe(
        'address 127.0.0.1 is not allowed for webhooks (loopback, private, link-local or reserved)',
      );
    } finally {
      sender.close();
    }
    expect(v4.connections).toBe(0);
    expect(v6.connections).toBe(0);
  });

  it('connects to the same listeners when WEBHOOK_ALLOW_PRIVATE is true (so the 0 above means something)', async () => {
    const sender = new WebhookSender({ timeoutMs: 1000, allowPrivate: true });
    try {
      const results = await Promise.all(
        [
          v4.url(),
          `http://localhost:${v4.listeningPort}/hook`,
          `http://2130706433:${v4.listeningPort}/hook`,
          v6.url(),
        ].map((url) => sender.send({ url, method: 'GET', headers: { 'x-webhook-id': 'allowed' } })),
      );
      expect(results.map((result) => result.statusCode)).toEqual([200, 200, 200, 200]);
    } finally {
      sender.close();
    }
    expect(v4.connections).toBeGreaterThan(0);
    expect(v6.connections).toBeGreaterThan(0);
    v4.connections = 0;
    v6.connections = 0;
    v4.received.length = 0;
    v6.received.length = 0;
  });

  describe('through the outbox and the dispatcher', () => {
    let core: RunningApp;

    beforeAll(async () => {
      core = await startCore({ ...WEBHOOK_TEST_ENV, WEBHOOK_ALLOW_PRIVATE: 'false' });
    });

    afterAll(async () => {
      await core?.app.close();
    });

    it('logs refused attempts, retries them on the schedule and never connects', async () => {
      const store = await createStore(core);
      const urls = loopbackSpellings();
      for (const url of urls)
        await createTransaction(core, store, { webhookUrl: url, webhookMethod: 'post' });
      const events = await eventsOfStore(core, store.storeId);
      expect(events).toHaveLength(urls.length);

      const manager = core.app.get(DataSource).manager;
      const deadline = Date.now() + 15_000;
      const attemptsOf = async () =>
        manager
          .createQueryBuilder(WebhookDelivery, 'delivery')
          .where('delivery.eventId IN (:...ids)', { ids: events.map((event) => event.id) })
          .getMany();
      // Each event has been attempted at least twice: refused, rescheduled, refused again.
      while (Date.now() < deadline) {
        const attempts = await attemptsOf();
        if (
          events.every(
            (event) => attempts.filter((attempt) => attempt.eventId === event.id).length >= 2,
          )
        )
          break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const attempts = await attemptsOf();
      for (const event of events)
        expect(
          attempts.filter((attempt) => attempt.eventId === event.id).length,
        ).toBeGreaterThanOrEqual(2);
      for (const attempt of attempts)
        expect(attempt).toMatchObject({
          statusCode: null,
          responsePrefix: null,
          error: expect.stringContaining('not allowed for webhooks'),
        });
      expect(v4.connections).toBe(0);
      expect(v6.connections).toBe(0);
    });

    it('refuses a loopback literal as a store default with 400, and accepts a hostname (checked at connect time)', async () => {
      const store = await createStore(core);
      const operator = admin({ core });
      for (const url of [
        'http://127.0.0.1/hook',
        'http://10.0.0.7/hook',
        'http://[::1]/hook',
        'http://169.254.169.254/latest/meta-data/',
        'http://[fd00:ec2::254]/',
      ]) {
        const res = await operator
          .call('patch', `/stores/${store.storeId}/webhook`, { url })
          .expect(400);
        expect(res.body).toMatchObject({
          message: 'ERROR_INVALID_REQUEST',
          details: [{ field: 'url', errors: [expect.stringContaining('not allowed')] }],
        });
      }
      await operator
        .call('patch', `/stores/${store.storeId}/webhook`, { url: 'https://shop.example.com/hook' })
        .expect(200);
    });
  });
});
