import {
  createServer,
  IncomingHttpHeaders,
  IncomingMessage,
  Server,
  ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';

/**
 * A stand-in for the core used ONLY to produce the core's failures (STYLE.md): 5xx, 4xx with a
 * body, timeouts, HTML, replies without an id, dropped connections. The happy path is always the
 * real core app. The core client's own transport specs also use it, to see where a call goes
 * and what it sends.
 */
export interface FakeReply {
  status?: number;
  contentType?: string;
  body?: string | object;
  /** Answer only after this long (a timeout test). */
  delayMs?: number;
  /** Drop the connection without answering. */
  destroy?: boolean;
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  socketId: number;
}

export class FakeCore {
  readonly requests: RecordedRequest[] = [];
  /** How many TCP connections the merchant API opened: keep-alive reuses one. */
  connections = 0;
  private reply: (request: RecordedRequest) => FakeReply = () => ({
    status: 500,
    body: { message: 'ERROR_SERVER_INTERNAL_ERROR' },
  });
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeCore> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('fake core has no port');
    const fake = new FakeCore(server, `http://127.0.0.1:${address.port}`);
    const socketIds = new WeakMap<Socket, number>();
    server.on('connection', (socket) => {
      fake.connections += 1;
      socketIds.set(socket, fake.connections);
      fake.sockets.add(socket);
      socket.on('close', () => fake.sockets.delete(socket));
    });
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const recorded = {
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks),
          socketId: socketIds.get(req.socket) ?? 0,
        };
        fake.requests.push(recorded);
        fake.answer(fake.reply(recorded), req, res);
      });
    });
    return fake;
  }

  /** Every following request gets this reply. */
  respond(reply: FakeReply | ((request: RecordedRequest) => FakeReply)): void {
    this.reply = typeof reply === 'function' ? reply : () => reply;
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private answer(reply: FakeReply, req: IncomingMessage, res: ServerResponse): void {
    const send = (): void => {
      if (reply.destroy) {
        req.socket.destroy();
        return;
      }
      const body = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
      res.writeHead(reply.status ?? 200, {
        'content-type': reply.contentType ?? 'application/json; charset=utf-8',
      });
      res.end(body);
    };
    if (!reply.delayMs) return send();
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!res.destroyed) send();
    }, reply.delayMs);
    this.timers.add(timer);
  }
}
