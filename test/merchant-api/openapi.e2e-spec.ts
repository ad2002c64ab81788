import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import createClient from 'openapi-fetch';
import request from 'supertest';
import { pathPayload, sign } from '@app/signature';
import type { components, paths } from '../support/merchant-api.openapi';
import { SigningClient } from '../support/signing-client';
import { startSystem, TestSystem } from '../support/system';
import { merchantKit } from './merchant-kit';

type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  $ref?: string;
  nullable?: boolean;
  items?: Schema;
  allOf?: Schema[];
};
interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        responses: Record<
          string,
          {
            content?: Record<string, { examples?: Record<string, { value: { message: string } }> }>;
          }
        >;
      }
    >
  >;
  components: { schemas: Record<string, Schema>; securitySchemes: Record<string, unknown> };
  info: { description: string };
}

const COMMITTED = join(__dirname, '../../docs/openapi/merchant-api.json');

/**
 * Issue item 10: the OpenAPI document at /docs-json is generated from the code, is the one
 * committed (and linted in CI), and a client generated from it (openapi-typescript, openapi-fetch)
 * drives the API: renaming a path, a field or a type in the code without regenerating fails here.
 */
describe('OpenAPI document', () => {
  let system: TestSystem;
  let kit: ReturnType<typeof merchantKit>;
  let live: OpenApiDocument;

  beforeAll(async () => {
    system = await startSystem();
    kit = merchantKit(system);
    live = (await request(system.api.url).get('/docs-json').expect(200)).body;
  });
  afterAll(() => system.close());

  it('serves the UI at /docs and the JSON at /docs-json', async () => {
    const ui = await request(system.api.url).get('/docs').redirects(1).expect(200);
    expect(ui.headers['content-type']).toMatch(/text\/html/);
    expect(live.info.description).toContain('Signing requests');
    expect(live.components.securitySchemes.publicToken).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-public-token' }),
    );
  });

  it('is the committed docs/openapi/merchant-api.json (regenerate with `npm run openapi:export` and `npm run openapi:types`)', () => {
    expect(live).toEqual(JSON.parse(readFileSync(COMMITTED, 'utf8')));
  });

  it('documents the eight endpoints, each with its error codes as examples', () => {
    const operations = Object.values(live.paths).flatMap((methods) => Object.values(methods));
    expect(operations.map((operation) => operation.operationId).sort()).toEqual([
      'cancelPayin',
      'cancelPayout',
      'confirmPayin',
      'createPayin',
      'createPayout',
      'getPayin',
      'listBalanceChanges',
      'uploadPayinProof',
    ]);
    const codes = (operationId: string): string[] => {
      const operation = operations.find((candidate) => candidate.operationId === operationId)!;
      return Object.values(operation.responses).flatMap((response) =>
        Object.values(response.content?.['application/json']?.examples ?? {}).map(
          (example) => example.value.message,
        ),
      );
    };
    for (const operation of operations) {
      expect(codes(operation.operationId)).toEqual(
        expect.arrayContaining([
          'ERROR_PUBLIC_TOKEN_REQUIRED',
          'ERROR_SIGNATURE_REQUIRED',
          'ERROR_PUBLIC_TOKEN_INVALID',
          'ERROR_SIGNATURE_INVALID',
          'ERROR_SERVER_INTERNAL_ERROR',
        ]),
      );
    }
    expect(codes('getPayin')).toEqual(
      expect.arrayContaining(['ERROR_ACCESS_PAYIN_DISABLED', 'ERROR_TRANSACTION_NOT_FOUND']),
    );
    expect(codes('createPayin')).toEqual(
      expect.arrayContaining([
        'ERROR_CORE_INVALID_RESPONSE',
        'ERROR_DUPLICATE_PAYMENT_ID',
        'ERROR_IDEMPOTENCY_KEY_REUSED',
      ]),
    );
    expect(codes('uploadPayinProof')).toEqual(
      expect.arrayContaining([
        'ERROR_INVALID_DOCUMENT_TYPE',
        'ERROR_FILE_TOO_LARGE',
        'ERROR_INVALID_REQUEST',
      ]),
    );
    expect(codes('createPayout')).toEqual(expect.arrayContaining(['ERROR_ACCESS_PAYOUT_DISABLED']));
    expect(codes('listBalanceChanges')).toEqual(
      expect.arrayContaining(['ERROR_ACCESS_ACCOUNT_DISABLED']),
    );
  });

  it('drives every JSON endpoint through the client generated from the document, whose responses match its schemas', async () => {
    const { store } = await kit.merchant({ funded: 100 });
    const api = createClient<paths>({
      baseUrl: system.api.url,
      headers: { 'x-public-token': store.publicToken },
    });
    const schemas = live.components.schemas;

    const createBody = {
      amount: 42.5,
      clientId: 7,
      paymentId: 'openapi-1',
      description: 'typed client',
    };
    const created = await api.POST('/api/v1/payin', {
      body: { ...createBody, signature: sign(createBody, store.privateToken) },
    });
    expect(created.response.status).toBe(200);
    const payin = created.data!.data;
    expectMatchesSchema(created.data, 'TransactionResponseDto', schemas);
    expect(payin).toMatchObject({ amount: 42.5, externalId: 'openapi-1', status: 'pending' });

    const id = payin.transactionId;
    const read = await api.GET('/api/v1/payin/{transactionId}', {
      params: {
        path: { transactionId: id },
        query: { transactionId: id, signature: sign(pathPayload(id), store.privateToken) },
      },
    });
    expect(read.data?.data.transactionId).toBe(id);

    const confirmed = await api.PATCH('/api/v1/payin/{transactionId}', {
      params: { path: { transactionId: id } },
      body: { transactionId: id, signature: sign(pathPayload(id), store.privateToken) },
    });
    expect(confirmed.data?.data.status).toBe('processing');

    const other = (await kit.payin(new SigningClient(system.api.url, store))).transactionId;
    const canceled = await api.DELETE('/api/v1/payin/{transactionId}', {
      params: { path: { transactionId: other } },
      body: { transactionId: other, signature: sign(pathPayload(other), store.privateToken) },
    });
    expect(canceled.data?.data.status).toBe('canceled');

    const payoutBody = { amount: 10, clientId: 7, cardNumber: '4111111111111111' };
    const payout = await api.POST('/api/v1/payout', {
      body: { ...payoutBody, signature: sign(payoutBody, store.privateToken) },
    });
    expectMatchesSchema(payout.data, 'TransactionResponseDto', schemas);
    const payoutId = payout.data!.data.transactionId;
    const payoutCanceled = await api.DELETE('/api/v1/payout/{transactionId}', {
      params: { path: { transactionId: payoutId } },
      body: { transactionId: payoutId, signature: sign(pathPayload(payoutId), store.privateToken) },
    });
    expect(payoutCanceled.data?.data.status).toBe('canceled');

    const page = await api.GET('/api/v1/merchant/balance/changes', {
      params: {
        query: { page: 1, limit: 2, signature: sign({ page: 1, limit: 2 }, store.privateToken) },
      },
    });
    expectMatchesSchema(page.data, 'BalanceChangesResponseDto', schemas);
    const items: components['schemas']['BalanceChangeDto'][] = page.data!.data.items;
    expect(items.map((item) => item.flow)).toEqual(['payout_refund', 'payout']);

    const refused = await api.GET('/api/v1/payin/{transactionId}', {
      params: { path: { transactionId: id }, query: { signature: 'bad' } },
    });
    expect(refused.response.status).toBe(401);
    expectMatchesSchema(refused.error, 'ErrorResponseDto', schemas);
  });
});

/** A small structural check: required keys present, no undocumented keys, JSON types as documented. */
function expectMatchesSchema(
  value: unknown,
  name: string,
  schemas: Record<string, Schema>,
  path = name,
): void {
  check(value, { $ref: `#/components/schemas/${name}` }, schemas, path);
}

function check(
  value: unknown,
  schema: Schema,
  schemas: Record<string, Schema>,
  path: string,
): void {
  if (value === null && schema.nullable) return;
  if (schema.$ref) return check(value, schemas[schema.$ref.split('/').pop()!], schemas, path);
  if (schema.allOf) return schema.allOf.forEach((part) => check(value, part, schemas, path));
  if (value === null) throw new Error(`${path} is null but not nullable`);
  if (schema.properties) {
    expect(typeof value).toBe('object');
    const object = value as Record<string, unknown>;
    for (const key of schema.required ?? [])
      if (!(key in object))
        throw new Error(`${path}.${key} is required by the document but missing`);
    for (const key of Object.keys(object)) {
      if (!schema.properties[key]) throw new Error(`${path}.${key} is not in the document`);
      check(object[key], schema.properties[key], schemas, `${path}.${key}`);
    }
    return;
  }
  if (schema.type === 'array') {
    expect(Array.isArray(value)).toBe(true);
    (value as unknown[]).forEach((item, index) =>
      check(item, schema.items ?? {}, schemas, `${path}[${index}]`),
    );
    return;
  }
  const expected = schema.type === 'integer' ? 'number' : schema.type;
  if (expected && expected !== 'object' && typeof value !== expected)
    throw new Error(`${path} is ${typeof value}, documented as ${schema.type}`);
}
