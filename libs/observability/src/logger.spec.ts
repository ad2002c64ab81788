import { once } from 'node:events';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import express from 'express';
import { createLogger, NestPinoLogger, requestLogFields, requestLogging } from './logger';

/** Nest's Logger calls, as the application makes them, and the JSON line each becomes. */
describe('NestPinoLogger', () => {
  let lines: Record<string, unknown>[];
  let logger: Logger;

  beforeEach(() => {
    lines = [];
    const pino = createLogger('test-service', 'info', {
      write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>),
    });
    Logger.overrideLogger(new NestPinoLogger(pino));
    logger = new Logger('Payins');
  });

  afterAll(() => Logger.overrideLogger(false));

  it('writes a message with its level, service and context', () => {
    logger.warn('redis unavailable');
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        service: 'test-service',
        context: 'Payins',
        msg: 'redis unavailable',
      }),
    ]);
  });

  it('merges an object of fields and takes the text after it', () => {
    logger.error({ reqId: 'r-12345678', method: 'GET' }, 'unhandled error');
    expect(lines).toEqual([
      expect.objectContaining({
        level: 50,
        reqId: 'r-12345678',
        method: 'GET',
        msg: 'unhandled error',
        context: 'Payins',
      }),
    ]);
  });

  it('keeps an Error as err with its stack, and a stack passed as a string', () => {
    logger.error(new Error('boom'));
    logger.error('failed', 'Error: failed\n    at somewhere');
    expect(lines[0]).toMatchObject({
      level: 50,
      msg: 'boom',
      err: { type: 'Error', message: 'boom' },
    });
    expect(String((lines[0].err as { stack: string }).stack)).toContain('Error: boom');
    expect(lines[1]).toMatchObject({
      level: 50,
      msg: 'failed',
      stack: 'Error: failed\n    at somewhere',
    });
  });

  it('writes nothing below its level, and redacts secret-bearing fields if code ever logs them', () => {
    logger.debug('noise');
    logger.log(
      { privateToken: 'secret-token', cardNumber: '4111111111111111', storeId: 7 },
      'store loaded',
    );
    expect(lines).toEqual([expect.objectContaining({ storeId: 7, msg: 'store loaded' })]);
    expect(JSON.stringify(lines)).not.toMatch(/secret-token|4111111111111111/);
  });
});

/** The request line, against a real Express server. */
describe('requestLogging', () => {
  it('writes a line for a request the client abandons before the answer, marked aborted', async () => {
    const lines: Record<string, unknown>[] = [];
    const pino = createLogger('test-service', 'info', {
      write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>),
    });
    const app = express();
    app.use(requestLogging(pino));
    let reached!: () => void;
    const handlerReached = new Promise<void>((resolve) => (reached = resolve));
    app.get('/slow', () => reached()); // never answers
    const server = createServer(app).listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
      socket.write(
        'GET /slow?signature=s3cr3t HTTP/1.1\r\nhost: x\r\nx-request-id: abandoned-0001\r\n\r\n',
      );
      await handlerReached;
      socket.destroy();
      for (let waited = 0; waited < 5000 && lines.length === 0; waited += 20)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(lines).toEqual([
        expect.objectContaining({
          level: 40,
          reqId: 'abandoned-0001',
          aborted: true,
          req: { method: 'GET', path: '/slow' },
          msg: 'GET /slow aborted by the client',
        }),
      ]);
      expect(JSON.stringify(lines)).not.toContain('s3cr3t');
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it("hands a handler the request's log fields, without the query string that carries the signature", async () => {
    const pino = createLogger('test-service', 'silent', { write: () => undefined });
    const app = express();
    app.set('trust proxy', false);
    app.use(requestLogging(pino));
    app.get('/payin/:id', (req, res) => void res.json(requestLogFields(req) ?? null));
    const server = createServer(app).listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const port = (server.address() as AddressInfo).port;
      const answer = await fetch(`http://127.0.0.1:${port}/payin/42?signature=s3cr3t`, {
        headers: { 'x-request-id': 'fields-0001' },
      });
      const fields = (await answer.json()) as Record<string, unknown>;
      expect(fields).toEqual({
        reqId: 'fields-0001',
        clientIp: '127.0.0.1',
        req: { method: 'GET', path: '/payin/42' },
      });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
