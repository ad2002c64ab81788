import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

export const DOCS_PATH = 'docs';
export const DOCS_JSON_PATH = 'docs-json';

const DESCRIPTION = `
The public API of the payment gateway: payins, payouts and the balance ledger.

Every success is HTTP 200 with \`{ "message": "OK" | "SUCCESS", "data": ... }\`. Every error is JSON
\`{ "message": "<ERROR_CODE>", "details"?: ... }\`; each operation below lists every code it can
answer, with its status. Timestamps are UTC, \`dd.mm.yyyy HH:mm:ss\`. Amounts are JSON numbers with
at most 2 decimal places. Each response carries \`x-request-id\` (send your own to correlate logs).

## Signing requests

Every request carries the header \`x-public-token\` (your store's public token) and a parameter
\`signature\`: in the query for GET, in the JSON body for POST, PATCH and DELETE, as a text field of the
form for the proof upload. The private token is the HMAC key; it is never sent.

1. **What to sign.** GET: the query parameters. POST/PATCH/DELETE: the fields of the JSON body, exactly
   as you send them (fields this document does not list still count). Any operation on
   \`/{transactionId}\` signs the single parameter \`transactionId\` with the value from the path
   (plus \`timestamp\` and \`nonce\` when you send them).
2. **Strip** \`signature\`, and every value that is null or a string that is empty after trimming.
3. **Sort** the remaining keys ascending (byte order).
4. **Join** \`key=value\` pairs with \`&\`: strings as they are (no trimming, no URL-encoding), objects
   and arrays as compact JSON (\`JSON.stringify\`), numbers and booleans in plain form (\`100.5\`, \`true\`).
5. \`signature = lowercase hex HMAC-SHA256(message, private token)\`.

Example: body \`{"amount":100.5,"clientId":42,"description":" hi "}\` signs
\`amount=100.5&clientId=42&description= hi \`; reading payin \`6f1c2d9e-4b7a-4c1e-9a3b-2f8d5e7c1a90\`
signs \`transactionId=6f1c2d9e-4b7a-4c1e-9a3b-2f8d5e7c1a90\`.

\`\`\`sh
printf '%s' 'transactionId=6f1c2d9e-4b7a-4c1e-9a3b-2f8d5e7c1a90' | openssl dgst -sha256 -hmac "$PRIVATE_TOKEN"
\`\`\`

Checks run in this order: \`x-public-token\` present, \`signature\` present, token known, signature
valid (all 401), rate limit (429), merchant record (404), access flag (403), validation (400),
transaction lookup (404), then the core (its status passed on). A body that cannot be read at all
(malformed JSON, over 1 MB, a proof over 10 MB) is refused before any of these, with 400 or 413.

## Replay protection (optional)

Add \`timestamp\` (Unix seconds) and \`nonce\` (unique per request, up to 128 characters) to the signed
parameters. A timestamp more than 300 s from the server's clock is \`ERROR_SIGNATURE_EXPIRED\`; a nonce
the store has used before is \`ERROR_SIGNATURE_REPLAYED\`. A store can be configured to require both.

## Retries

Creates accept an \`Idempotency-Key\` header, and \`paymentId\` is unique per store: retry a create
with the same key and body (or the same \`paymentId\` and parameters) and you get the first payin back,
never a second one.
`;

/** The merchant API's OpenAPI document, built from the controllers' decorators. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Payment Gateway Merchant API')
    .setDescription(DESCRIPTION.trim())
    .setVersion('1.0.0')
    .addServer('/', 'This server')
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'x-public-token',
        description:
          'Your store\'s public token. Every request is also signed; see "Signing requests".',
      },
      'publicToken',
    )
    .addTag('payin', 'Incoming payments: create, read, cancel, confirm, proof of payment.')
    .addTag('payout', 'Outgoing payments to a recipient card.')
    .addTag('balance', "The merchant's balance ledger.")
    .build();
  return SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controller, method) => method,
  });
}

/** Serves the UI at /docs and the JSON at /docs-json. */
export function setupOpenApi(app: INestApplication): OpenAPIObject {
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup(DOCS_PATH, app, document, {
    jsonDocumentUrl: DOCS_JSON_PATH,
    yamlDocumentUrl: 'docs-yaml',
    customSiteTitle: 'Merchant API',
    swaggerOptions: { persistAuthorization: true },
  });
  return document;
}
