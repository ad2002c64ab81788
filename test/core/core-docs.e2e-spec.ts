import request from 'supertest';
import { RunningApp, startCore } from '../support/system';

describe('core OpenAPI document', () => {
  let core: RunningApp;
  beforeAll(async () => {
    core = await startCore();
  });
  afterAll(() => core.app.close());

  it('describes every core and admin call with its bearer scheme at /core/docs-json', async () => {
    const { body } = await request(core.url).get('/core/docs-json').expect(200);
    expect(body.openapi).toMatch(/^3\./);
    const paths = Object.keys(body.paths);
    for (const path of [
      '/core/v1/payins',
      '/core/v1/payins/{id}/cancel',
      '/core/v1/payins/{id}/confirm',
      '/core/v1/payins/{id}/proof',
      '/core/v1/payouts',
      '/core/v1/payouts/{id}/cancel',
      '/admin/v1/merchants',
      '/admin/v1/merchants/{id}',
      '/admin/v1/merchants/{id}/stores',
      '/admin/v1/stores/{id}',
      '/admin/v1/stores/{id}/rotate-tokens',
      '/admin/v1/stores/{id}/adjustments',
      '/admin/v1/payment-details',
      '/admin/v1/payment-details/{id}',
      '/admin/v1/transactions/{id}',
      '/admin/v1/transactions/{id}/status',
      '/admin/v1/audit',
      '/files/{key}',
    ]) {
      expect(paths).toContain(path);
    }
    expect(Object.keys(body.components.securitySchemes).sort()).toEqual(
      expect.arrayContaining(['admin', 'service']),
    );
    const create = body.paths['/core/v1/payins'].post;
    expect(create.security).toEqual([{ service: [] }]);
    expect(Object.keys(create.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '404', '409']),
    );
    const schema = body.components.schemas.CreatePayinRequestDto;
    expect(schema.required).toEqual(expect.arrayContaining(['storeId', 'amount', 'clientId']));
    expect(
      body.paths['/core/v1/payins/{id}/proof'].post.requestBody.content['multipart/form-data'],
    ).toBeDefined();
  });

  it('serves the browsable UI at /core/docs', async () => {
    const res = await request(core.url).get('/core/docs').redirects(1).expect(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
  });
});
