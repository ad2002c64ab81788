import { createHmac, randomUUID } from 'node:crypto';
import request from 'supertest';
import { FieldCipher } from '@app/crypto';
import { pathPayload, sign } from '@app/signature';
import { PNG } from '../support/documents';
import type { TestStore } from '../support/factories';
import { SigningClient } from '../support/signing-client';
import { startSystem, TestSystem } from '../support/system';
import { merchantKit, overwriteSealedToken } from './merchant-kit';

/**
 * Every signing rule of merchant-api.md 5.1 through HTTP, twice: signed by libs/signature (what
 * SigningClient does) and by an independent computation, a literal canonical string put through
 * node:crypto, or a digest computed once with `openssl dgst -sha256 -hmac priv_secret`.
 */
const hmac = (message: string, key: string): string =>
  createHmac('sha256', key).update(message, 'utf8').digest('hex');

describe('request signing (merchant-api.md 5.1)', () => {
  let system: TestSystem;
  let kit: ReturnType<typeof merchantKit>;
  let store: TestStore;

  beforeAll(async () => {
    system = await startSystem();
    kit = merchantKit(system);
    store = (await kit.merchant()).store;
  });
  afterAll(() => system.close());

  const post = (path: string, body: object) =>
    request(system.api.url).post(path).set('x-public-token', store.publicToken).send(body);
  const balance = (query: Record<string, string>) =>
    request(system.api.url)
      .get('/api/v1/merchant/balance/changes')
      .set('x-public-token', store.publicToken)
      .query(query);

  describe('rule 1: GET signs its query, other methods their JSON body', () => {
    it('accepts a query signed by the library and by hand; refuses one changed after signing', async () => {
      await balance({
        page: '1',
        limit: '5',
        signature: sign({ page: '1', limit: '5' }, store.privateToken),
      }).expect(200);
      await balance({
        page: '1',
        limit: '5',
        signature: hmac('limit=5&page=1', store.privateToken),
      }).expect(200);
      const res = await balance({
        page: '2',
        limit: '5',
        signature: hmac('limit=5&page=1', store.privateToken),
      }).expect(401);
      expect(res.body).toEqual({ message: 'ERROR_SIGNATURE_INVALID' });
    });

    it('accepts a body signed by the library and by hand; refuses one changed after signing', async () => {
      const body = { amount: 100.5, clientId: 42 };
      await post('/api/v1/payin', { ...body, signature: sign(body, store.privateToken) }).expect(
        200,
      );
      await post('/api/v1/payin', {
        ...body,
        signature: hmac('amount=100.5&clientId=42', store.privateToken),
      }).expect(200);
      await post('/api/v1/payin', {
        ...body,
        amount: 100.51,
        signature: hmac('amount=100.5&clientId=42', store.privateToken),
      }).expect(401, {
        message: 'ERROR_SIGNATURE_INVALID',
      });
    });

    it('covers body fields beyond the table: changing one breaks the signature', async () => {
      const body = { amount: 5, clientId: 1, orderRef: 'A-1' };
      const signature = hmac('amount=5&clientId=1&orderRef=A-1', store.privateToken);
      await post('/api/v1/payin', { ...body, signature }).expect(200);
      await post('/api/v1/payin', { ...body, orderRef: 'A-2', signature }).expect(401, {
        message: 'ERROR_SIGNATURE_INVALID',
      });
    });
  });

  describe('rule 2: a path with {transactionId} signs only transactionId from the path', () => {
    let transactionId: string;
    beforeAll(async () => {
      transactionId = (await kit.payin(new SigningClient(system.api.url, store))).transactionId;
    });

    it('GET: transactionId and signature in the query', async () => {
      const byHand = hmac(`transactionId=${transactionId}`, store.privateToken);
      expect(byHand).toBe(sign(pathPayload(transactionId), store.privateToken));
      await request(system.api.url)
        .get(`/api/v1/payin/${transactionId}`)
        .set('x-public-token', store.publicToken)
        .query({ transactionId, signature: byHand })
        .expect(200);
      await request(system.api.url)
        .get(`/api/v1/payin/${transactionId}`)
        .set('x-public-token', store.publicToken)
        .query({ signature: byHand })
        .expect(200);
    });

    it('PATCH and DELETE: in the body; other body fields are not signed, a signature over them is refused', async () => {
      const byHand = hmac(`transactionId=${transactionId}`, store.privateToken);
      const overBody = hmac(`reason=test&transactionId=${transactionId}`, store.privateToken);
      await request(system.api.url)
        .patch(`/api/v1/payin/${transactionId}`)
        .set('x-public-token', store.publicToken)
        .send({ transactionId, reason: 'test', signature: overBody })
        .expect(401);
      await request(system.api.url)
        .patch(`/api/v1/payin/${transactionId}`)
        .set('x-public-token', store.publicToken)
        .send({ transactionId, reason: 'test', signature: byHand })
        .expect(200);
      const other = await kit.payin(new SigningClient(system.api.url, store));
      await request(system.api.url)
        .delete(`/api/v1/payin/${other.transactionId}`)
        .set('x-public-token', store.publicToken)
        .send({
          transactionId: other.transactionId,
          signature: hmac(`transactionId=${other.transactionId}`, store.privateToken),
        })
        .expect(200);
    });

    it("the signature names the path: reusing one transaction's signature on another is refused", async () => {
      const other = randomUUID();
      await request(system.api.url)
        .get(`/api/v1/payin/${other}`)
        .set('x-public-token', store.publicToken)
        .query({
          transactionId: other,
          signature: hmac(`transactionId=${transactionId}`, store.privateToken),
        })
        .expect(401, { message: 'ERROR_SIGNATURE_INVALID' });
    });

    it('proof upload: transactionId and signature as text fields of the form', async () => {
      const created = await kit.payin(new SigningClient(system.api.url, store));
      const res = await request(system.api.url)
        .post(`/api/v1/payin/${created.transactionId}`)
        .set('x-public-token', store.publicToken)
        .field('transactionId', created.transactionId)
        .field('signature', hmac(`transactionId=${created.transactionId}`, store.privateToken))
        .attach('document', PNG, { filename: 'r.png', contentType: 'image/png' })
        .expect(200);
      expect(res.body.data.status).toBe('processing');
    });
  });

  describe('rule 3: strip signature, null, empty and whitespace-only values', () => {
    it('leaves out empty, whitespace-only and null fields', async () => {
      const body = { amount: 7, clientId: 3, description: '   ', gate: '', language: null };
      await post('/api/v1/payin', {
        ...body,
        signature: hmac('amount=7&clientId=3', store.privateToken),
      }).expect(200);
      await post('/api/v1/payin', { ...body, signature: sign(body, store.privateToken) }).expect(
        200,
      );
    });

    it('refuses a signature that included an empty value', async () => {
      const body = { amount: 7, clientId: 3, gate: '' };
      await post('/api/v1/payin', {
        ...body,
        signature: hmac('amount=7&clientId=3&gate=', store.privateToken),
      }).expect(401);
    });
  });

  describe('rule 4: keys sorted ascending', () => {
    it('refuses the same pairs in sending order', async () => {
      const body = { clientId: 3, amount: 7 };
      await post('/api/v1/payin', {
        ...body,
        signature: hmac('clientId=3&amount=7', store.privateToken),
      }).expect(401);
      await post('/api/v1/payin', {
        ...body,
        signature: hmac('amount=7&clientId=3', store.privateToken),
      }).expect(200);
    });

    it('sorts by code unit: upper case before lower case', async () => {
      const body = { amount: 7, clientId: 3, Zeta: 'z', alpha: 'a' };
      await post('/api/v1/payin', {
        ...body,
        signature: hmac('Zeta=z&alpha=a&amount=7&clientId=3', store.privateToken),
      }).expect(200);
    });
  });

  describe('rule 5: how values are written', () => {
    it('strings as sent: leading and trailing spaces count', async () => {
      const body = { amount: 7, clientId: 3, description: ' hi there ' };
      await post('/api/v1/payin', {
        ...body,
        signature: hmac('amount=7&clientId=3&description= hi there ', store.privateToken),
      }).expect(200);
      await post('/api/v1/payin', {
        ...body,
        signature: hmac('amount=7&clientId=3&description=hi there', store.privateToken),
      }).expect(401);
    });

    it('strings not URL-encoded', async () => {
      const note = 'a b&c=%20/é';
      const body = {
        amount: 7,
        clientId: 3,
        note,
        successUrl: 'https://shop.example.com/ok?order=1&x=%2F',
      };
      const message = `amount=7&clientId=3&note=${note}&successUrl=https://shop.example.com/ok?order=1&x=%2F`;
      await post('/api/v1/payin', { ...body, signature: hmac(message, store.privateToken) }).expect(
        200,
      );
      await post('/api/v1/payin', {
        ...body,
        signature: hmac(encodeURI(message), store.privateToken),
      }).expect(401);
    });

    it('objects and arrays as compact JSON', async () => {
      const body = {
        amount: 7,
        clientId: 3,
        meta: { a: [1, 2], b: 'x' },
        tags: ['x', { k: null }],
      };
      await post('/api/v1/payin', {
        ...body,
        signature: hmac(
          'amount=7&clientId=3&meta={"a":[1,2],"b":"x"}&tags=["x",{"k":null}]',
          store.privateToken,
        ),
      }).expect(200);
      await post('/api/v1/payin', {
        ...body,
        signature: hmac(
          'amount=7&clientId=3&meta={"a": [1, 2], "b": "x"}&tags=["x",{"k":null}]',
          store.privateToken,
        ),
      }).expect(401);
    });

    it('numbers and booleans in plain form', async () => {
      const body = { amount: 100.5, clientId: 42, isTest: 1, urgent: true, zero: 0 };
      await post('/api/v1/payin', {
        ...body,
        signature: hmac('amount=100.5&clientId=42&isTest=1&urgent=true&zero=0', store.privateToken),
      }).expect(200);
      await post('/api/v1/payin', {
        ...body,
        signature: hmac(
          'amount=100.50&clientId=42&isTest=1&urgent=true&zero=0',
          store.privateToken,
        ),
      }).expect(401);
    });
  });

  describe('rule 6: lowercase hex HMAC-SHA256 keyed by the private token', () => {
    it('refuses uppercase hex, a truncated digest and another key', async () => {
      const body = { amount: 7, clientId: 3 };
      const good = hmac('amount=7&clientId=3', store.privateToken);
      await post('/api/v1/payin', { ...body, signature: good.toUpperCase() }).expect(401, {
        message: 'ERROR_SIGNATURE_INVALID',
      });
      await post('/api/v1/payin', { ...body, signature: good.slice(0, 63) }).expect(401, {
        message: 'ERROR_SIGNATURE_INVALID',
      });
      await post('/api/v1/payin', {
        ...body,
        signature: hmac('amount=7&clientId=3', 'another-key'),
      }).expect(401, { message: 'ERROR_SIGNATURE_INVALID' });
      await post('/api/v1/payin', {
        ...body,
        signature: hmac('amount=7&clientId=3', store.publicToken),
      }).expect(401, { message: 'ERROR_SIGNATURE_INVALID' });
    });
  });

  describe('fixed vectors computed with openssl (private token "priv_secret")', () => {
    let fixed: TestStore;
    beforeAll(async () => {
      fixed = (await kit.merchant()).store;
      const sealed = new FieldCipher(system.api.config.secrets.encryptionKey).encrypt(
        'priv_secret',
      );
      await overwriteSealedToken(kit.db(), fixed.storeId, sealed);
    });

    it('query: limit=5&page=1', async () => {
      await request(system.api.url)
        .get('/api/v1/merchant/balance/changes')
        .set('x-public-token', fixed.publicToken)
        .query({
          page: 1,
          limit: 5,
          signature: '45b8056728257fedd61472da0931d4e289c00ef275c406d4cbc4dbc609b58ded',
        })
        .expect(200);
    });

    it('path rule: transactionId=6f1c2d9e-4b7a-4c1e-9a3b-2f8d5e7c1a90 authenticates (then 404: no such payin)', async () => {
      await request(system.api.url)
        .get('/api/v1/payin/6f1c2d9e-4b7a-4c1e-9a3b-2f8d5e7c1a90')
        .set('x-public-token', fixed.publicToken)
        .query({
          transactionId: '6f1c2d9e-4b7a-4c1e-9a3b-2f8d5e7c1a90',
          signature: 'db8cc19bf80e425c7bab28fb98a72ad3facd9354637d4808b8130e24d6585605',
        })
        .expect(404, { message: 'ERROR_TRANSACTION_NOT_FOUND' });
    });

    it('body: every value kind at once', async () => {
      const body = {
        ok: true,
        meta: { a: [1, 2], b: 'x' },
        isTest: 1,
        description: ' hi there ',
        clientId: 42,
        amount: 100.5,
        empty: '  ',
      };
      const res = await request(system.api.url)
        .post('/api/v1/payin')
        .set('x-public-token', fixed.publicToken)
        .send({
          ...body,
          signature: '50b812a3145ddafe5b91a5a8a9b6b069069a8665567c3fc0ee96bb1975e648b4',
        })
        .expect(200);
      expect(res.body.data).toMatchObject({
        amount: 100.5,
        isTest: true,
        description: ' hi there ',
        client: { id: '42' },
      });
    });
  });
});
