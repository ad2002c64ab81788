import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One notification as the merchant's server saw it. */
export interface ReceivedWebhook {
  at: number;
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  rawBody: string;
  /** The parsed JSON body of a post; the query of a get. */
  fields: Record<string, unknown>;
  eventId: string;
}

/** How the receiver answers one request: a status, or no answer at all. */
export type Reply = { status: number; body?: string; headers?: Record<string, string> } | 'hang';
export type Responder = (request: ReceivedWebhook, attemptOfEvent: number) => Reply;

/**
 * A merchant's webhook endpoint on loopback: records every request and TCP connection, answers
 * as `responder` says, and can be taken down and brought back on the same port.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  connections = 0;
  responder: Responder = () => ({ status: 200, body: 'ok' });
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private port = 0;

  constructor(private readonly host = '127.0.0.1') {}

  async start(): Promise<this> {
    const server = createServer((req, res) => this.handle(req, res));
    server.on('connection', (socket: Socket) => {
      this.connections += 1;
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, this.host, () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  /** Closes the listener and every open connection: new attempts are refused. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  url(path = '/hook'): string {
    const host = this.host.includes(':') ? `[${this.host}]` : this.host;
    return `http://${host}:${this.port}${path}`;
  }

  get listeningPort(): number {
    return this.port;
  }

  /** Requests per event id. */
  byEvent(): Map<string, ReceivedWebhook[]> {
    const map = new Map<string, ReceivedWebhook[]>();
    for (const request of this.received)
      map.set(request.eventId, [...(map.get(request.eventId) ?? []), request]);
    return map;
  }

  for(path: string): ReceivedWebhook[] {
    return this.received.filter((request) => request.path === path);
  }

  /** Resolves once `predicate` holds, polling; fails with `what` after `timeoutMs`. */
  async waitFor(predicate: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://receiver');
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const query = Object.fromEntries(url.searchParams.entries());
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([key, value]) => [key, String(value)]),
      );
      const fields =
        req.method === 'POST' && rawBody ? (JSON.parse(rawBody) as Record<string, unknown>) : query;
      const request: ReceivedWebhook = {
        at: Date.now(),
        method: req.method ?? '',
        path: url.pathname,
        query,
        headers,
        rawBody,
        fields,
        eventId: headers['x-webhook-id'] ?? '',
      };
      this.received.push(request);
      const attemptOfEvent = this.received.filter(
        (other) => other.eventId === request.eventId,
      ).length;
      const reply = this.responder(request, attemptOfEvent);
      if (reply === 'hang') return;
      res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
      res.end(reply.body ?? '');
    });
  }
}
