import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import axios from 'axios';
import { HttpService } from '@nestjs/axios';
import { haveSameHiddenClass } from '../../../test/support/v8-heap';
import { CoreClient } from './core-client.service';

describe('the options of a call to the core', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.setHeader('content-type', 'application/json; charset=utf-8');
        res.end('{"transactionId":"abc","status":"canceled"}');
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  // They were a spread copy of the call's method, URL and body with eleven keys added. V8 reused
  // the hidden classes of such a copy for about ten calls and then built new ones for each key on
  // every call: garbage in the old generation per call (about eleven hidden classes), and inline
  // caches in axios that never met the same class twice.
  it('share one hidden class from call to call', async () => {
    const http = new HttpService(axios.create());
    const sent: object[] = [];
    const request = http.axiosRef.request.bind(http.axiosRef);
    jest.spyOn(http.axiosRef, 'request').mockImplementation((config) => {
      sent.push(config);
      return request(config);
    });
    const client = new CoreClient(http, {
      baseUrl: `http://127.0.0.1:${port}`,
      timeoutMs: 2_000,
      serviceToken: 'service-token',
    });
    for (let i = 0; i < 50; i++) {
      expect(await client.cancelPayin(1, 'abc', { requestId: `req-${i}` })).toEqual({
        transactionId: 'abc',
        status: 'canceled',
      });
    }
    const changes = sent.slice(1).filter((config, i) => !haveSameHiddenClass(sent[i], config));
    expect(changes.length).toBe(0);
  });
});
