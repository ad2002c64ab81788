import { mkdtempSync, readFileSync } from 'node:fs';
import { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Controller, Get, Module, Req } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Express, Request } from 'express';
import request from 'supertest';
import { writeSelfSignedCertificate } from '../../../test/support/tls';
import { hasFastProperties } from '../../../test/support/v8-heap';
import { GatewayExpressAdapter } from './express-server';

@Controller()
class ProbeController {
  @Get('probe')
  probe(@Req() req: Request): object {
    return {
      path: req.path,
      host: req.get('host'),
      isIncomingMessage: req instanceof IncomingMessage,
      isServerResponse: req.res instanceof ServerResponse,
    };
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

async function start(httpsOptions?: { key: Buffer; cert: Buffer }) {
  const app = await NestFactory.create<NestExpressApplication>(
    ProbeModule,
    new GatewayExpressAdapter(),
    { logger: false, httpsOptions },
  );
  await app.init();
  const express = app.getHttpAdapter().getInstance() as Express;
  // What the server built, seen before Express's own handler runs.
  const arrived: Array<{ req: object; res: object; sent: { req: object; res: object } }> = [];
  app.getHttpServer().prependListener('request', (req: object, res: object) => {
    arrived.push({
      req: Object.getPrototypeOf(req),
      res: Object.getPrototypeOf(res),
      sent: { req, res },
    });
  });
  return { app, express, arrived };
}

describe('GatewayExpressAdapter', () => {
  it("builds each request and response with the app's own prototypes, so Express never changes them", async () => {
    const { app, express, arrived } = await start();
    try {
      const res = await request(app.getHttpServer()).get('/probe').expect(200);
      expect(res.body).toEqual({
        path: '/probe',
        host: expect.stringContaining('127.0.0.1'),
        isIncomingMessage: true,
        isServerResponse: true,
      });
      expect(arrived).toHaveLength(1);
      expect(arrived[0].req).toBe(express.request);
      expect(arrived[0].res).toBe(express.response);
    } finally {
      await app.close();
    }
  });

  // A response in dictionary mode costs about 1 µs to build and misses every inline cache that reads it.
  it('builds requests and responses that stay fast-mode objects through a whole request', async () => {
    const { app, arrived } = await start();
    try {
      await request(app.getHttpServer()).get('/probe').expect(200);
      expect(hasFastProperties(arrived[0].sent.req)).toBe(true);
      expect(hasFastProperties(arrived[0].sent.res)).toBe(true);
    } finally {
      await app.close();
    }
  });

  it('does the same over TLS', async () => {
    const { certFile, keyFile } = writeSelfSignedCertificate(
      mkdtempSync(join(tmpdir(), 'gw-tls-')),
    );
    const { app, express, arrived } = await start({
      key: readFileSync(keyFile),
      cert: readFileSync(certFile),
    });
    try {
      await request(app.getHttpServer()).get('/probe').trustLocalhost().expect(200);
      expect(arrived[0].req).toBe(express.request);
      expect(arrived[0].res).toBe(express.response);
    } finally {
      await app.close();
    }
  });
});
