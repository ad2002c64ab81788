import { createHmac, randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { Webhook } from 'standardwebhooks';
import { AdminAuditLog } from '@app/database';
import { verify } from '@app/signature';
import { coreKit } from '../core/core-test-kit';
import { admin } from '../support/factories';
import { RunningApp, startCore } from '../support/system';
import { confirm, createStore, createTransaction, eventsOfStore } from './support/fixtures';
import { Reply, ReceivedWebhook, WebhookReceiver } from './support/receiver';
import {
  holdWebhookSuiteLock,
  RETRY_SCHEDULE_TOTAL_MS,
  WEBHOOK_TEST_ENV,
} from './support/webhook-env';

const hmacHex = (message: string, key: string): string =>
  createHmac('sha256', key).update(message, 'utf8').digest('hex');

describe('webhook delivery', () => {
  let releaseLock: () => Promise<void>;
  let core: RunningApp;
  const receiver = new WebhookReceiver();
  /** Per-path answers, so each test has its own endpoint on the one receiver. */
  const routes = new Map<string, (request: ReceivedWebhook, attempt: number) => Reply>();

  beforeAll(async () => {
    releaseLock = await holdWebhookSuiteLock();
    await receiver.start();
    receiver.responder = (req, attempt) =>
      routes.get(req.path)?.(req, attempt) ?? { status: 200, body: 'ok' };
    core = await startCore(WEBHOOK_TEST_ENV);
  }, 300_000);

  afterAll(async () => {
    await core?.app.close();
    await receiver.stop();
    await releaseLock?.();
  });

  const newPath = (): string => `/hook-${randomUUID()}`;
  const operator = () => admin({ core });
  const eventView = async (eventId: string) =>
    (await operator().call('get', `/webhooks/${eventId}`).expect(200)).body;
  const waitForEvent = async (eventId: string, status: string, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const view = await eventView(eventId);
      if (view.status === status) return view;
      if (Date.now() > deadline)
        throw new Error(`event ${eventId} still ${view.status}, wanted ${status}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it('delivers a post notification within a second, verifiable with libs/signature, a hand-computed HMAC and standardwebhooks', async () => {
    const store = await createStore(core);
    const path = newPath();
    const transaction = await createTransaction(core, store, {
      webhookUrl: receiver.url(path),
      webhookMethod: 'post',
      amount: '100.50',
      externalId: 'order-42',
    });
    await receiver.waitFor(() => receiver.for(path).length === 1, 'the creation notification');

    const changedAt = Date.now();
    await confirm(core, transaction.id);
    await receiver.waitFor(
      () => receiver.for(path).some((r) => r.fields.status === 'processing'),
      'the processing notification',
    );
    const delivery = receiver.for(path).find((r) => r.fields.status === 'processing')!;
    expect(delivery.at - changedAt).toBeLessThan(1000);

    expect(delivery.method).toBe('POST');
    expect(delivery.headers['content-type']).toBe('application/json');
    const body = delivery.fields;
    expect(body).toEqual({
      eventId: delivery.headers['x-webhook-id'],
      type: 'payin',
      transactionId: transaction.id,
      externalId: 'order-42',
      status: 'processing',
      amount: 100.5,
      currency: 'USD',
      isTest: false,
      updatedAt: expect.stringMatching(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}$/),
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(delivery.headers['webhook-id']).toBe(body.eventId);

    // The merchant's own request-signing code verifies it...
    expect(verify(body, store.privateToken, body.signature)).toBe(true);
    // ...and so does the section-5 rule written out by hand.
    const canonical =
      `amount=100.5&currency=USD&eventId=${body.eventId}&externalId=order-42&isTest=false&status=processing` +
      `&transactionId=${transaction.id}&type=payin&updatedAt=${body.updatedAt}`;
    expect(body.signature).toBe(hmacHex(canonical, store.privateToken));
    // Standard Webhooks, with the store's webhook secret, over the exact body received.
    expect(new Webhook(store.webhookSecret).verify(delivery.rawBody, delivery.headers)).toEqual(
      body,
    );
    expect(() =>
      new Webhook(store.webhookSecret).verify(
        delivery.rawBody.replace('100.5', '1000.5'),
        delivery.headers,
      ),
    ).toThrow();
  });

  it("delivers a get notification with the same fields as query parameters, signed with the URL's own", async () => {
    const store = await createStore(core);
    const path = newPath();
    const transaction = await createTransaction(core, store, {
      webhookUrl: `${receiver.url(path)}?shop=7`,
      webhookMethod: 'get',
      amount: '25.00',
      externalId: null,
      isTest: true,
    });
    await receiver.waitFor(() => receiver.for(path).length === 1, 'the get notification');
    const delivery = receiver.for(path)[0];

    expect(delivery.method).toBe('GET');
    expect(delivery.rawBody).toBe('');
    expect(delivery.headers['webhook-signature']).toBeUndefined();
    const query = delivery.query;
    expect(query).toEqual({
      shop: '7',
      eventId: delivery.headers['x-webhook-id'],
      type: 'payin',
      transactionId: transaction.id,
      status: 'pending',
      amount: '25',
      currency: 'USD',
      isTest: 'true',
      updatedAt: expect.any(String),
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(verify(query, store.privateToken, query.signature)).toBe(true);
    const canonical =
      `amount=25&currency=USD&eventId=${query.eventId}&isTest=true&shop=7&status=pending` +
      `&transactionId=${transaction.id}&type=payin&updatedAt=${query.updatedAt}`;
    expect(query.signature).toBe(hmacHex(canonical, store.privateToken));
  });

  it('retries after a 500 and logs both attempts', async () => {
    const store = await createStore(core);
    const path = newPath();
    routes.set(path, (_req, attempt) =>
      attempt === 1 ? { status: 500, body: 'temporarily broken' } : { status: 204 },
    );
    await createTransaction(core, store, { webhookUrl: receiver.url(path) });
    await receiver.waitFor(() => receiver.for(path).length === 2, 'the retry');

    const [first, second] = receiver.for(path);
    expect(second.eventId).toBe(first.eventId);
    expect(second.at - first.at).toBeGreaterThanOrEqual(150);
    const view = await waitForEvent(first.eventId, 'delivered');
    expect(view.attempts).toEqual([
      expect.objectContaining({
        statusCode: 500,
        responsePrefix: 'temporarily broken',
        error: null,
        url: receiver.url(path),
      }),
      expect.objectContaining({ statusCode: 204, responsePrefix: '', error: null }),
    ]);
    expect(view.deliveredAt).not.toBeNull();
  });

  it('times out a receiver that hangs and retries it', async () => {
    const store = await createStore(core);
    const path = newPath();
    routes.set(path, (_req, attempt) => (attempt === 1 ? 'hang' : { status: 200, body: 'ok' }));
    await createTransaction(core, store, { webhookUrl: receiver.url(path) });
    await receiver.waitFor(() => receiver.for(path).length === 2, 'the retry after the timeout');

    const [first, second] = receiver.for(path);
    expect(second.eventId).toBe(first.eventId);
    // WEBHOOK_TIMEOUT_MS (1 s) and then the first backoff step (0.2 s).
    expect(second.at - first.at).toBeGreaterThanOrEqual(1_100);
    const view = await waitForEvent(first.eventId, 'delivered');
    expect(view.attempts[0]).toMatchObject({
      statusCode: null,
      responsePrefix: null,
      error: 'timed out after 1000 ms',
    });
    expect(view.attempts[0].durationMs).toBeGreaterThanOrEqual(990);
    expect(view.attempts[1]).toMatchObject({ statusCode: 200, responsePrefix: 'ok', error: null });
  });

  it('does not follow redirects: a 302 is a failed attempt', async () => {
    const store = await createStore(core);
    const path = newPath();
    const elsewhere = newPath();
    routes.set(path, (_req, attempt) =>
      attempt === 1
        ? { status: 302, headers: { location: receiver.url(elsewhere) } }
        : { status: 200 },
    );
    await createTransaction(core, store, { webhookUrl: receiver.url(path) });
    await receiver.waitFor(() => receiver.for(path).length === 2, 'the retry after the redirect');
    expect(receiver.for(elsewhere)).toHaveLength(0);
    const view = await waitForEvent(receiver.for(path)[0].eventId, 'delivered');
    expect(view.attempts.map((attempt: { statusCode: number }) => attempt.statusCode)).toEqual([
      302, 200,
    ]);
  });

  it('marks a notification failed after the whole schedule, and an operator resend delivers it with the same id', async () => {
    const store = await createStore(core);
    const path = newPath();
    let healthy = false;
    routes.set(path, () =>
      healthy ? { status: 200 } : { status: 503, body: 'down for maintenance' },
    );
    const transaction = await createTransaction(core, store, { webhookUrl: receiver.url(path) });
    const [event] = await eventsOfStore(core, store.storeId);

    const failed = await waitForEvent(event.id, 'failed', RETRY_SCHEDULE_TOTAL_MS + 15_000);
    const scheduleLength = WEBHOOK_TEST_ENV.WEBHOOK_RETRY_SCHEDULE.split(',').length;
    expect(failed.attempts).toHaveLength(scheduleLength + 1);
    expect(failed.nextAttemptAt).toBeNull();
    expect(receiver.for(path)).toHaveLength(scheduleLength + 1);

    healthy = true;
    const resent = await operator().call('post', `/webhooks/${event.id}/resend`).expect(200);
    expect(resent.body).toMatchObject({ eventId: event.id, status: 'pending', attemptCount: 0 });
    const delivered = await waitForEvent(event.id, 'delivered');
    expect(delivered.attempts).toHaveLength(scheduleLength + 2);
    const last = receiver.for(path).at(-1)!;
    expect(last.eventId).toBe(event.id);
    expect(last.fields.transactionId).toBe(transaction.id);

    const audit = await core.app
      .get(DataSource)
      .manager.findOne(AdminAuditLog, { where: { action: 'webhook.resend', targetId: event.id } });
    expect(audit).toMatchObject({ actor: 'e2e', targetType: 'webhook_event' });
  }, 60_000);

  it("uses the store's default URL for payouts and for payins without their own, and a payin's own URL over it", async () => {
    const defaultPath = newPath();
    const ownPath = newPath();
    const store = await createStore(core, { url: receiver.url(defaultPath), method: 'get' });
    await operator().fund(store.storeId, 1000);

    const payout = await createTransaction(core, store, { type: 'payout', amount: '10.00' });
    const payinWithout = await createTransaction(core, store);
    const payinWithOwn = await createTransaction(core, store, {
      webhookUrl: receiver.url(ownPath),
      webhookMethod: 'post',
    });
    await receiver.waitFor(
      () => receiver.for(defaultPath).length === 2 && receiver.for(ownPath).length === 1,
      'three notifications',
    );

    const atDefault = receiver.for(defaultPath);
    expect(atDefault.every((r) => r.method === 'GET')).toBe(true);
    expect(atDefault.map((r) => r.query.transactionId).sort()).toEqual(
      [payout.id, payinWithout.id].sort(),
    );
    expect(atDefault.find((r) => r.query.transactionId === payout.id)!.query.type).toBe('payout');
    expect(receiver.for(ownPath)[0].fields.transactionId).toBe(payinWithOwn.id);
    for (const delivery of [...atDefault, ...receiver.for(ownPath)])
      expect(verify(delivery.fields, store.privateToken, delivery.fields.signature)).toBe(true);
  });

  it("creates through the core API notify the store's default URL, set or changed just before", async () => {
    const kit = coreKit(core);
    const store = await kit.storeWithDetails();
    await kit.ops.fund(store.storeId, 100);
    const first = newPath();
    await operator()
      .call('patch', `/stores/${store.storeId}/webhook`, { url: receiver.url(first) })
      .expect(200);
    const payin = await kit.createPayin(store.storeId).expect(200);
    const second = newPath();
    await operator()
      .call('patch', `/stores/${store.storeId}/webhook`, {
        url: receiver.url(second),
        method: 'get',
      })
      .expect(200);
    const payout = await kit.createPayout(store.storeId).expect(200);
    await receiver.waitFor(
      () => receiver.for(first).length === 1 && receiver.for(second).length === 1,
      'one notification at each URL',
    );
    expect(receiver.for(first)[0].fields).toMatchObject({
      transactionId: payin.body.transactionId,
      status: 'pending',
    });
    expect(receiver.for(second)[0].method).toBe('GET');
    expect(receiver.for(second)[0].query.transactionId).toBe(payout.body.transactionId);
  });

  it('writes no notification when there is no URL, nor for a change that rolls back', async () => {
    const store = await createStore(core);
    await createTransaction(core, store);
    const path = newPath();
    await operator()
      .call('patch', `/stores/${store.storeId}/webhook`, { url: receiver.url(path) })
      .expect(200);
    // An unfunded payout: the debit refuses it and the whole creation, outbox row included, rolls back.
    await expect(
      createTransaction(core, store, { type: 'payout', amount: '10.00' }),
    ).rejects.toMatchObject({ code: 'ERROR_INSUFFICIENT_BALANCE' });
    expect(await eventsOfStore(core, store.storeId)).toEqual([]);
  });

  it('goes through the core API and the admin API: one notification per status change', async () => {
    const kit = coreKit(core);
    const store = await kit.storeWithDetails();
    const path = newPath();
    const created = await kit
      .createPayin(store.storeId, { webhookUrl: receiver.url(path), webhookMethod: 'post' })
      .expect(200);
    const id = created.body.transactionId as string;
    await kit.move('payins', id, 'confirm', store.storeId).expect(200);
    await operator()
      .setStatus(id, 'success')
      .then((res) => expect(res.status).toBe(200));
    await receiver.waitFor(() => receiver.for(path).length === 3, 'three notifications');

    const deliveries = receiver.for(path);
    expect(deliveries.map((r) => r.fields.status).sort()).toEqual([
      'pending',
      'processing',
      'success',
    ]);
    expect(new Set(deliveries.map((r) => r.eventId)).size).toBe(3);
    for (const delivery of deliveries)
      expect(verify(delivery.fields, store.privateToken, delivery.fields.signature)).toBe(true);

    // The operator's view of the transaction carries each notification's delivery log.
    const events = await eventsOfStore(core, store.storeId);
    for (const event of events) await waitForEvent(event.id, 'delivered');
    const view = await operator().call('get', `/transactions/${id}`).expect(200);
    expect(view.body.webhookDeliveries).toHaveLength(3);
    expect(
      view.body.webhookDeliveries.map((d: { transactionStatus: string }) => d.transactionStatus),
    ).toEqual(['pending', 'processing', 'success']);
    for (const event of view.body.webhookDeliveries) {
      expect(event).toMatchObject({ status: 'delivered', url: receiver.url(path), method: 'post' });
      expect(event.attempts).toEqual([
        {
          attemptedAt: expect.any(String),
          url: receiver.url(path),
          statusCode: 200,
          durationMs: expect.any(Number),
          responsePrefix: 'ok',
          error: null,
        },
      ]);
    }
    // Signatures are computed per attempt and never stored or shown.
    const shown = JSON.stringify(view.body);
    for (const delivery of deliveries)
      expect(shown).not.toContain(delivery.fields.signature as string);
  });

  describe('admin endpoints', () => {
    it('sets, shows and clears the store default, validating the input', async () => {
      const store = await createStore(core);
      const ops = operator();
      await ops
        .call('get', `/stores/${store.storeId}/webhook`)
        .expect(200, { storeId: store.storeId, url: null, method: null });
      const url = 'https://shop.example.com/payments/hook?x=1';
      await ops
        .call('patch', `/stores/${store.storeId}/webhook`, { url, method: 'GET' })
        .expect(200, { storeId: store.storeId, url, method: 'get' });
      await ops
        .call('get', `/stores/${store.storeId}/webhook`)
        .expect(200, { storeId: store.storeId, url, method: 'get' });
      await ops
        .call('patch', `/stores/${store.storeId}/webhook`, { url: null })
        .expect(200, { storeId: store.storeId, url: null, method: null });

      const badUrl = await ops
        .call('patch', `/stores/${store.storeId}/webhook`, { url: 'ftp://shop.example.com/x' })
        .expect(400);
      expect(badUrl.body).toMatchObject({
        message: 'ERROR_INVALID_REQUEST',
        details: [expect.objectContaining({ field: 'url' })],
      });
      const badMethod = await ops
        .call('patch', `/stores/${store.storeId}/webhook`, { url, method: 'put' })
        .expect(400);
      expect(badMethod.body.details).toEqual([expect.objectContaining({ field: 'method' })]);
      await ops
        .call('patch', '/stores/2147483000/webhook', { url })
        .expect(404, { message: 'ERROR_STORE_NOT_FOUND' });
      await request(core.url)
        .patch(`/admin/v1/stores/${store.storeId}/webhook`)
        .send({ url })
        .expect(401);

      const audit = await core.app.get(DataSource).manager.find(AdminAuditLog, {
        where: { action: 'store.webhook', targetId: String(store.storeId) },
      });
      expect(audit).toHaveLength(2);
    });

    it('rotates the webhook secret: later notifications verify with the new one only', async () => {
      const path = newPath();
      const store = await createStore(core, { url: receiver.url(path) });
      const rotated = await operator()
        .call('post', `/stores/${store.storeId}/webhook-secret/rotate`)
        .expect(200);
      expect(rotated.body).toEqual({
        storeId: store.storeId,
        webhookSecret: expect.stringMatching(/^whsec_[A-Za-z0-9+/=]{40,}$/),
      });
      expect(rotated.body.webhookSecret).not.toBe(store.webhookSecret);
      const shown = await operator().call('get', `/stores/${store.storeId}`).expect(200);
      expect(shown.body.webhookSecret).toBe(rotated.body.webhookSecret);

      await createTransaction(core, store);
      await receiver.waitFor(() => receiver.for(path).length === 1, 'the notification');
      const delivery = receiver.for(path)[0];
      expect(
        new Webhook(rotated.body.webhookSecret).verify(delivery.rawBody, delivery.headers),
      ).toEqual(delivery.fields);
      expect(() =>
        new Webhook(store.webhookSecret).verify(delivery.rawBody, delivery.headers),
      ).toThrow();

      const audit = await core.app.get(DataSource).manager.findOne(AdminAuditLog, {
        where: { action: 'store.rotate-webhook-secret', targetId: String(store.storeId) },
      });
      expect(JSON.stringify(audit)).not.toContain(rotated.body.webhookSecret);
    });

    it('answers 404 ERROR_WEBHOOK_EVENT_NOT_FOUND for an unknown or malformed event id', async () => {
      const ops = operator();
      for (const id of [randomUUID(), 'not-a-uuid']) {
        await ops
          .call('get', `/webhooks/${id}`)
          .expect(404, { message: 'ERROR_WEBHOOK_EVENT_NOT_FOUND' });
        await ops
          .call('post', `/webhooks/${id}/resend`)
          .expect(404, { message: 'ERROR_WEBHOOK_EVENT_NOT_FOUND' });
      }
      await request(core.url).post(`/admin/v1/webhooks/${randomUUID()}/resend`).expect(401);
    });

    it('shows an event with its payload, target and delivery log', async () => {
      const path = newPath();
      const store = await createStore(core, { url: receiver.url(path), method: 'post' });
      const transaction = await createTransaction(core, store, { amount: '7.25' });
      const [event] = await eventsOfStore(core, store.storeId);
      const view = await waitForEvent(event.id, 'delivered');
      expect(view).toMatchObject({
        eventId: event.id,
        transactionId: transaction.id,
        storeId: store.storeId,
        transactionStatus: 'pending',
        url: receiver.url(path),
        method: 'post',
        status: 'delivered',
        attemptCount: 1,
        nextAttemptAt: null,
        payload: {
          eventId: event.id,
          transactionId: transaction.id,
          amount: 7.25,
          status: 'pending',
          type: 'payin',
        },
      });
      expect(view.payload).not.toHaveProperty('signature');
    });
  });
});
