import request from 'supertest';
import { startSystem, TestSystem } from './support/system';

describe('health endpoints', () => {
  let system: TestSystem;
  beforeAll(async () => {
    system = await startSystem();
  });
  afterAll(() => system.close());

  it.each(['core', 'api'] as const)('%s answers live and ready with the database checked', async (name) => {
    const url = system[name].url;
    await request(url).get('/health/live').expect(200, { status: 'ok' });
    const ready = await request(url).get('/health/ready').expect(200);
    expect(ready.body.status).toBe('ok');
    expect(ready.body.info.database.status).toBe('up');
    if (process.env.REDIS_URL) expect(ready.body.info.redis.status).toBe('up');
  });

  it('returns a request id header on every response', async () => {
    const res = await request(system.api.url).get('/health/live').set('x-request-id', 'req-12345678').expect(200);
    expect(res.headers['x-request-id']).toBe('req-12345678');
    const generated = await request(system.api.url).get('/health/live').expect(200);
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers an unknown route with the JSON error envelope, never HTML', async () => {
    const res = await request(system.api.url).get('/nope').expect(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body).toEqual({ message: 'ERROR_ROUTE_NOT_FOUND' });
  });
});
