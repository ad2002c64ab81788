import { createServer, request, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createAgents } from './core-client.module';

/** Sends one GET through `agent` and resolves with the socket once the agent has pooled it. */
function pooledSocket(
  port: number,
  agent: ReturnType<typeof createAgents>['http'],
): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', agent }, (res) => {
      res.resume();
      res.on('end', () => setImmediate(() => resolve(req.socket as Socket)));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('connections to the core', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer((_req, res) => res.end('{}'));
    server.keepAliveTimeout = 3_000;
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  it('drops an idle pooled connection a second before the server would close it', async () => {
    const agents = createAgents();
    try {
      const socket = await pooledSocket(port, agents.http);
      expect(socket.destroyed).toBe(false);
      expect(socket.timeout).toBe(2_000);
    } finally {
      agents.http.destroy();
    }
  });
});
