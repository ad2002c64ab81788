import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { listen } from '@app/observability';
import { sign } from '@app/signature';
import { createMerchantApiApp } from '../../apps/merchant-api/src/bootstrap';
import { PDF } from '../support/documents';
import { writeSelfSignedCertificate } from '../support/tls';
import { SigningClient } from '../support/signing-client';
import {
  RunningApp,
  startMerchantApi,
  startSystem,
  testConfig,
  TestSystem,
} from '../support/system';
import { breakSealedCard, merchantKit, overwriteSealedToken } from './merchant-kit';

interface LogLine {
  level: number;
  reqId?: string;
  latencyMs?: number;
  clientIp?: string;
  req?: { method: string; path: string };
  res?: { status: number };
  msg: string;
}

/** A merchant API whose JSON log lines the test can read. */
async function startLoggedApi(
  coreUrl: string,
  overrides: Record<string, string> = {},
): Promise<RunningApp & { lines: string[] }> {
  const lines: string[] = [];
  const config = testConfig({ CORE_URL: coreUrl, LOG_LEVEL: 'info', ...overrides });
  const app = await createMerchantApiApp(config, {
    logDestination: { write: (line: string) => void lines.push(line) },
  });
  const url = await listen(app, '127.0.0.1', 0);
  return { app, url, config, lines };
}

const requestLines = (lines: string[], reqId: string): LogLine[] =>
  lines
    .map((line) => JSON.parse(line) as LogLine)
    .filter((line) => line.reqId === reqId && line.res !== undefined);

/** Issue items 9 and 11: request logs, TLS, and forwarded headers trusted only from configured proxies. */
describe('transport: logs, TLS, proxies', () => {
  let system: TestSystem;
  let kit: ReturnType<typeof merchantKit>;

  beforeAll(async () => {
    system = await startSystem();
    kit = merchantKit(system);
  });
  afterAll(() => system.close());

  describe('request logs', () => {
    let logged: RunningApp & { lines: string[] };
    beforeAll(async () => {
      logged = await startLoggedApi(system.core.url);
    });
    afterAll(() => logged.app.close());

    it('writes one JSON line per request with its request id (also returned as x-request-id), latency and status', async () => {
      const { store } = await kit.merchant();
      const client = new SigningClient(logged.url, store);
      const res = await client
        .get('/api/v1/merchant/balance/changes')
        .set('x-request-id', 'qa-request-0001')
        .expect(200);
      expect(res.headers['x-request-id']).toBe('qa-request-0001');
      const generated = await client.get('/api/v1/merchant/balance/changes').expect(200);
      expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      const [line, ...more] = requestLines(logged.lines, 'qa-request-0001');
      expect(more).toEqual([]);
      expect(line).toMatchObject({
        reqId: 'qa-request-0001',
        req: { method: 'GET', path: '/api/v1/merchant/balance/changes' },
        res: { status: 200 },
      });
      expect(typeof line.latencyMs).toBe('number');
      expect(requestLines(logged.lines, generated.headers['x-request-id'])).toHaveLength(1);
    });

    it("tags the application's own lines of a request with its request id", async () => {
      const { store } = await kit.merchant();
      await overwriteSealedToken(kit.db(), store.storeId, 'v1.broken.record.value');
      const client = new SigningClient(logged.url, store);
      await client
        .get('/api/v1/merchant/balance/changes')
        .set('x-request-id', 'qa-request-app-line')
        .expect(401);
      const own = logged.lines
        .map((line) => JSON.parse(line) as LogLine & { msg?: string })
        .filter((line) => line.reqId === 'qa-request-app-line' && line.res === undefined);
      expect(own).toEqual([
        expect.objectContaining({
          level: 40,
          msg: expect.stringContaining('private token cannot be decrypted'),
          req: { method: 'GET', path: '/api/v1/merchant/balance/changes' },
        }),
      ]);
    });

    it('writes an unexpected failure with the fields of its request line and the stack, which the client never sees', async () => {
      const { store, client } = await kit.merchant();
      const { transactionId } = await kit.payin(client);
      await breakSealedCard(kit.db(), transactionId);
      const res = await new SigningClient(logged.url, store)
        .onTransaction('get', 'payin', transactionId)
        .set('x-request-id', 'qa-request-0500');
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ message: 'ERROR_SERVER_INTERNAL_ERROR' });
      const lines = logged.lines
        .map((line) => JSON.parse(line) as LogLine & { err?: { stack?: string } })
        .filter((line) => line.reqId === 'qa-request-0500');
      const error = lines.find((line) => line.msg === 'unhandled error');
      const requestLine = lines.find((line) => line.res !== undefined);
      expect(requestLine).toMatchObject({ level: 50, res: { status: 500 } });
      expect(error).toMatchObject({
        level: 50,
        clientIp: requestLine!.clientIp,
        req: { method: 'GET', path: `/api/v1/payin/${transactionId}` },
      });
      expect(error!.err!.stack).toContain('Invalid authentication tag length');
      expect(JSON.stringify(res.body)).not.toContain('stack');
    });

    it('logs failures at warn and error level with their status', async () => {
      await request(logged.url)
        .get('/api/v1/merchant/balance/changes')
        .set('x-request-id', 'qa-request-0401')
        .expect(401);
      expect(requestLines(logged.lines, 'qa-request-0401')).toEqual([
        expect.objectContaining({ level: 40, res: { status: 401 } }),
      ]);
    });

    it('logs a request the body parser refuses: malformed JSON, or a body the client abandons', async () => {
      await request(logged.url)
        .post('/api/v1/payin')
        .set('content-type', 'application/json')
        .set('x-request-id', 'qa-request-badjson')
        .send('{"amount": 10,')
        .expect(400);
      expect(requestLines(logged.lines, 'qa-request-badjson')).toEqual([
        expect.objectContaining({
          level: 40,
          req: { method: 'POST', path: '/api/v1/payin' },
          res: { status: 400 },
        }),
      ]);

      // A body announced but never sent in full: the client gives up and closes the connection.
      const { hostname, port } = new URL(logged.url);
      const socket = connect(Number(port), hostname);
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      socket.write(
        'POST /api/v1/payin HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n' +
          'content-length: 1000\r\nx-request-id: qa-request-abandoned\r\n\r\n{"amount"',
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      socket.destroy();
      for (let waited = 0; waited < 5000; waited += 20) {
        if (requestLines(logged.lines, 'qa-request-abandoned').length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(requestLines(logged.lines, 'qa-request-abandoned')).toEqual([
        expect.objectContaining({
          level: 40,
          req: { method: 'POST', path: '/api/v1/payin' },
          res: { status: 400 },
        }),
      ]);
    });

    it('never writes a private token, a signature, a public token, a full card number or file content', async () => {
      const { store } = await kit.merchant({ funded: 100 });
      const client = new SigningClient(logged.url, store);
      const payout = await client
        .send('post', '/api/v1/payout', { amount: 5, clientId: 1, cardNumber: '5555555555554444' })
        .set('x-request-id', 'qa-request-card')
        .expect(200);
      const payin = (
        await client
          .send('post', '/api/v1/payin', { amount: 5, clientId: 1, description: 'secret-desc' })
          .expect(200)
      ).body.data;
      const marker = `MARKER-${randomUUID()}`;
      const pdf = Buffer.concat([PDF, Buffer.from(`% ${marker}\n`)]);
      await client
        .uploadProof(payin.transactionId, pdf, `${marker}.pdf`, 'application/pdf')
        .expect(200);
      const query = await client.get('/api/v1/merchant/balance/changes', { page: 1 }).expect(200);
      const signature = new URL(query.request.url).searchParams.get('signature')!;
      const text = logged.lines.join('');
      for (const secret of [
        store.privateToken,
        store.publicToken,
        signature,
        '5555555555554444',
        marker,
        'secret-desc',
      ])
        expect(text).not.toContain(secret);
      expect(requestLines(logged.lines, 'qa-request-card')).toHaveLength(1);
      expect(payout.body.data.payment.cardNumber).toBe('555555******4444');
    });
  });

  describe('forwarded client IP', () => {
    it('believes X-Forwarded-For from a trusted proxy (TRUST_PROXY, default loopback)', async () => {
      const trusted = await startLoggedApi(system.core.url);
      try {
        await request(trusted.url).get('/health/live').expect(200);
        await request(trusted.url)
          .get('/api/v1/merchant/balance/changes')
          .set('x-forwarded-for', '203.0.113.9')
          .set('x-request-id', 'qa-forwarded-1')
          .expect(401);
        expect(requestLines(trusted.lines, 'qa-forwarded-1')[0].clientIp).toBe('203.0.113.9');
      } finally {
        await trusted.app.close();
      }
    });

    it('ignores X-Forwarded-For from anyone else', async () => {
      const untrusted = await startLoggedApi(system.core.url, { TRUST_PROXY: '192.0.2.1' });
      try {
        await request(untrusted.url)
          .get('/api/v1/merchant/balance/changes')
          .set('x-forwarded-for', '203.0.113.9')
          .set('x-request-id', 'qa-forwarded-2')
          .expect(401);
        expect(requestLines(untrusted.lines, 'qa-forwarded-2')[0].clientIp).toMatch(
          /127\.0\.0\.1$/,
        );
      } finally {
        await untrusted.app.close();
      }
    });

    it('limits failed authentications per client IP: forwarded IPs count apart only behind a trusted proxy', async () => {
      const { store } = await kit.merchant();
      const isolated = {
        AUTH_FAILURE_LIMIT_POINTS: '2',
        REDIS_KEY_PREFIX: `gw-test-ip-${randomUUID()}:`,
      };
      const trusted = await startMerchantApi(system.core.url, isolated);
      const untrusted = await startMerchantApi(system.core.url, {
        ...isolated,
        REDIS_KEY_PREFIX: `gw-test-ip-${randomUUID()}:`,
        TRUST_PROXY: '192.0.2.1',
      });
      try {
        const fail = (app: RunningApp, ip: string) =>
          request(app.url)
            .get('/api/v1/merchant/balance/changes')
            .set('x-forwarded-for', ip)
            .set('x-public-token', store.publicToken)
            .query({ signature: 'bad' });
        const good = (app: RunningApp, ip: string) =>
          new SigningClient(app.url, store)
            .get('/api/v1/merchant/balance/changes')
            .set('x-forwarded-for', ip);
        await fail(trusted, '198.51.100.1').expect(401);
        await fail(trusted, '198.51.100.1').expect(401);
        const blocked = await good(trusted, '198.51.100.1').expect(429);
        expect(blocked.body).toEqual({ message: 'ERROR_RATE_LIMIT_EXCEEDED' });
        expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
        await good(trusted, '198.51.100.2').expect(200);
        // Untrusted: rotating the header does not help, every attempt is the socket's address.
        await fail(untrusted, '198.51.100.3').expect(401);
        await fail(untrusted, '198.51.100.4').expect(401);
        await good(untrusted, '198.51.100.5').expect(429);
      } finally {
        await Promise.all([trusted.app.close(), untrusted.app.close()]);
      }
    });
  });

  describe('HTTPS', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-h2-tls-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('serves TLS itself when TLS_CERT_FILE and TLS_KEY_FILE are set', async () => {
      const { certFile, keyFile } = writeSelfSignedCertificate(dir);
      const tls = await startMerchantApi(system.core.url, {
        TLS_CERT_FILE: certFile,
        TLS_KEY_FILE: keyFile,
      });
      try {
        const httpsUrl = tls.url.replace(/^http:/, 'https:');
        const { store } = await kit.merchant();
        const res = await request(httpsUrl)
          .get('/api/v1/merchant/balance/changes')
          .ca(readFileSync(certFile))
          .set('x-public-token', store.publicToken)
          .query({ signature: sign({}, store.privateToken) })
          .expect(200);
        expect(res.body.message).toBe('SUCCESS');
        // Plain HTTP on the TLS port gets no API answer.
        await expect(request(tls.url).get('/health/live').timeout(2000)).rejects.toBeTruthy();
        // An untrusted certificate is refused by a client that checks it.
        await expect(request(httpsUrl).get('/health/live').timeout(2000)).rejects.toBeTruthy();
      } finally {
        await tls.app.close();
      }
    });
  });
});
