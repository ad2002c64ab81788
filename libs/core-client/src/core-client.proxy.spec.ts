import axios from 'axios';
import { HttpService } from '@nestjs/axios';
import { FakeCore } from '../../../test/support/fake-core';
import { CoreClient } from './core-client.service';

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
    // Where the call goes is the question, not what the core answers: both record what reaches
    // them, and only the one at CORE_URL should see the call.
    const core = await FakeCore.start();
    const proxy = await FakeCore.start();
    core.respond({ body: { transactionId: 'abc', status: 'canceled' } });
    proxy.respond({ body: { transactionId: 'abc', status: 'proxied' } });
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
      expect(core.requests.map((request) => request.url)).toEqual(['/core/v1/payins/abc/cancel']);
      expect(proxy.requests).toEqual([]);
    } finally {
      await core.close();
      await proxy.close();
    }
  });
});
