import { createServer, Server, Socket } from 'node:net';

/**
 * A TCP pass-through in front of a real server (Redis in the cache tests) that can be frozen:
 * while paused, nothing is forwarded either way, as if the server hung, and nothing is lost.
 * In-process, so a test never leaves a child process behind.
 */
export class PausableTcpProxy {
  private readonly pairs = new Set<[Socket, Socket]>();
  private paused = false;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(targetHost: string, targetPort: number): Promise<PausableTcpProxy> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('proxy has no port');
    const proxy = new PausableTcpProxy(server, address.port);
    server.on('connection', (client) => {
      const upstream = new Socket();
      upstream.connect(targetPort, targetHost);
      const pair: [Socket, Socket] = [client, upstream];
      proxy.pairs.add(pair);
      client.pipe(upstream);
      upstream.pipe(client);
      if (proxy.paused) pair.forEach((socket) => socket.pause());
      const close = (): void => {
        proxy.pairs.delete(pair);
        client.destroy();
        upstream.destroy();
      };
      client.on('close', close);
      upstream.on('close', close);
      client.on('error', close);
      upstream.on('error', close);
    });
    return proxy;
  }

  /** Client connections open through the proxy now. */
  get openConnections(): number {
    return this.pairs.size;
  }

  pause(): void {
    this.paused = true;
    for (const pair of this.pairs) pair.forEach((socket) => socket.pause());
  }

  resume(): void {
    this.paused = false;
    for (const pair of this.pairs) pair.forEach((socket) => socket.resume());
  }

  async close(): Promise<void> {
    for (const pair of this.pairs) pair.forEach((socket) => socket.destroy());
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
