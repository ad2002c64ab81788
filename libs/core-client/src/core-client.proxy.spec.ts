import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import axios from 'axios';
import { HttpService } from '@nestjs/axios';
import { CoreClient } from './core-client.service';

/** A server that answers every request with `reply` and remembers the paths it was asked for. */
async function recordingServer(
  reply: string,
): Promise<{ server: Server; url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    seen.push(req.url ?? '');
    res.setHeader('content-type', 'application/json');
    res.end(reply);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, seen };
}

const close = (server: Server) => new Promise<void>((done) => server.close(() => done()));

describe('the core client and proxy variables', () => {
  const names = ['HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];
  const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('calls the core directly even when HTTP_PROXY names a proxy', async () => {
    const core = await recordingServer(
      JSON.stringify({ transactionId: 'abc', status: 'canceled' }),
    );
    const proxy = await recordingServer(
      JSON.stringify({ transactionId: 'abc', status: 'proxied' }),
    );
    try {
      process.env.HTTP_PROXY = proxy.url;
      process.env.http_proxy = proxy.url;
      // Nothing exempts the core's address, so only the client itself keeps the proxy out.
      delete process.env.NO_PROXY;
      delete process.env.no_proxy;
      const client = new CoreClient(new HttpService(axios.create()), {
        baseUrl: core.url,
        timeoutMs: 2_000,
        serviceToken: 'service-token',
      });
      const result = await client.cancelPayin(1, 'abc', {});
      expect(result).toEqual({ transactionId: 'abc', status: 'canceled' });
      expect(core.seen).toEqual(['/core/v1/payins/abc/cancel']);
      expect(proxy.seen).toEqual([]);
    } finally {
      await close(core.server);
      await close(proxy.server);
    }
  });
});
