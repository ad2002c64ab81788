import axios from 'axios';
import { HttpService } from '@nestjs/axios';
import { FakeCore } from '../../../test/support/fake-core';
import { haveSameHiddenClass } from '../../../test/support/v8-heap';
import { CoreClient } from './core-client.service';

describe('the options of a call to the core', () => {
  let core: FakeCore;

  beforeAll(async () => {
    core = await FakeCore.start();
    core.respond({ body: { transactionId: 'abc', status: 'canceled' } });
  });
  afterAll(() => core.close());

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
      baseUrl: core.url,
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
