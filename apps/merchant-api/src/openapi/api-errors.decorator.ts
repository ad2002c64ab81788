import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorCode } from '@app/errors';
import { ErrorResponseDto } from './error-response.dto';

export interface DocumentedError {
  status: number;
  code: ErrorCode;
  when: string;
  details?: unknown;
}

const E = (status: number, code: ErrorCode, when: string, details?: unknown): DocumentedError => ({
  status,
  code,
  when,
  details,
});

/** The failures every merchant endpoint shares, in the order they are checked. */
export const AUTH_ERRORS: DocumentedError[] = [
  E(401, ErrorCode.PUBLIC_TOKEN_REQUIRED, 'No `x-public-token` header.'),
  E(
    401,
    ErrorCode.SIGNATURE_REQUIRED,
    'No `signature` (or the store requires `timestamp` and `nonce` and one is missing).',
  ),
  E(401, ErrorCode.PUBLIC_TOKEN_INVALID, 'Unknown public token, or its record is unusable.'),
  E(
    401,
    ErrorCode.SIGNATURE_INVALID,
    'The signature does not match the parameters as sent (or `nonce` is malformed).',
  ),
  E(
    401,
    ErrorCode.SIGNATURE_EXPIRED,
    '`timestamp` sent and more than 300 s away from the server time.',
  ),
  E(401, ErrorCode.SIGNATURE_REPLAYED, '`nonce` already used by this store.'),
  E(
    429,
    ErrorCode.RATE_LIMIT_EXCEEDED,
    'The store spent its request budget for the window; retry after `Retry-After` seconds.',
  ),
  E(404, ErrorCode.MERCHANT_NOT_FOUND, "The store's merchant record does not exist."),
];

export const ACCESS_ERRORS = {
  payin: E(403, ErrorCode.ACCESS_PAYIN_DISABLED, 'Payins are disabled for the merchant.'),
  payout: E(403, ErrorCode.ACCESS_PAYOUT_DISABLED, 'Payouts are disabled for the merchant.'),
  account: E(
    403,
    ErrorCode.ACCESS_ACCOUNT_DISABLED,
    'Account access is disabled for the merchant.',
  ),
};

export const INVALID_REQUEST = E(
  400,
  ErrorCode.INVALID_REQUEST,
  'Malformed JSON, wrong types, values out of bounds; `details` names each field.',
  [{ field: 'amount', errors: ['amount must be a number with at most 2 decimal places'] }],
);
export const INVALID_TRANSACTION_ID = E(
  400,
  ErrorCode.INVALID_REQUEST,
  '`transactionId` is not a UUID, or the echoed one differs from the path.',
  [{ field: 'transactionId', errors: ['transactionId must be a UUID'] }],
);
export const TRANSACTION_NOT_FOUND = E(
  404,
  ErrorCode.TRANSACTION_NOT_FOUND,
  "No such transaction of this merchant and type (another merchant's id is reported the same way).",
);
export const INTERNAL_ERROR = E(
  500,
  ErrorCode.SERVER_INTERNAL_ERROR,
  'Unexpected failure; logged with the request id (`x-request-id`).',
);
export const PAYLOAD_TOO_LARGE = E(413, ErrorCode.PAYLOAD_TOO_LARGE, 'JSON body over 1 MB.');

export const CORE_ERRORS: DocumentedError[] = [
  E(
    409,
    ErrorCode.CORE_REQUEST_FAILED,
    'The core refused the operation; its status and body are passed on (e.g. `ERROR_TRANSACTION_STATUS_CONFLICT`). Any other core 4xx/5xx is passed on the same way.',
    {
      message: 'ERROR_TRANSACTION_STATUS_CONFLICT',
    },
  ),
  E(
    502,
    ErrorCode.CORE_REQUEST_FAILED,
    'The core could not be reached or answered something unreadable.',
    { reason: 'the core could not be reached' },
  ),
  E(504, ErrorCode.CORE_REQUEST_FAILED, 'The core did not answer in time.', {
    reason: 'the core did not answer in time',
  }),
];

export const CREATE_ERRORS: DocumentedError[] = [
  E(
    409,
    ErrorCode.DUPLICATE_PAYMENT_ID,
    '`paymentId` already used by this store with other parameters.',
  ),
  E(
    409,
    ErrorCode.IDEMPOTENCY_KEY_IN_PROGRESS,
    'A request with this `Idempotency-Key` is still running.',
  ),
  E(
    422,
    ErrorCode.IDEMPOTENCY_KEY_REUSED,
    '`Idempotency-Key` already used by this store with another body or endpoint.',
  ),
  E(
    500,
    ErrorCode.CORE_INVALID_RESPONSE,
    "The core's reply to the creation lacked a transaction id.",
  ),
  E(404, ErrorCode.TRANSACTION_NOT_FOUND, 'The created transaction could not be read back.'),
];

/**
 * Documents every error an endpoint can answer: one OpenAPI response per status, each code
 * an example, so the list in /docs is the list the code produces.
 */
export function ApiErrors(errors: DocumentedError[]): MethodDecorator {
  const byStatus = new Map<number, DocumentedError[]>();
  for (const error of errors)
    byStatus.set(error.status, [...(byStatus.get(error.status) ?? []), error]);
  const decorators = [...byStatus.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, list]) => {
      const examples: Record<string, { summary: string; value: unknown }> = {};
      for (const error of list) {
        let name: string = error.code;
        for (let n = 2; examples[name]; n++) name = `${error.code}_${n}`;
        examples[name] = {
          summary: error.when,
          value:
            error.details === undefined
              ? { message: error.code }
              : { message: error.code, details: error.details },
        };
      }
      const description = list.map((error) => `\`${error.code}\`: ${error.when}`).join('\n\n');
      return ApiResponse({
        status,
        description,
        type: ErrorResponseDto,
        examples,
        ...(status === 429
          ? {
              headers: {
                'Retry-After': {
                  description: 'Seconds until the budget refills.',
                  schema: { type: 'integer' },
                },
              },
            }
          : {}),
      });
    });
  return applyDecorators(...decorators);
}
