import type { SignableParams } from '@app/signature';

/** The parameters a request carries its signature in, and the payload that signature covers. */
export interface SignedParts {
  /** The query (GET) or the body (JSON or the multipart form's text fields) as sent. */
  params: SignableParams;
  signature: unknown;
  payload: SignableParams;
}

/**
 * merchant-api.md 5.1 rules 1 and 2: GET signs its query, other methods their body, as sent
 * (before any validation pipe strips or converts fields). An endpoint whose path holds a
 * `transactionId` signs only `transactionId` with the value from the path, plus `timestamp` and
 * `nonce` when the request opts into replay protection (decisions.md section 3).
 */
export function signedParts(
  method: string,
  query: unknown,
  body: unknown,
  pathTransactionId: string | undefined,
): SignedParts {
  const params = asParams(method.toUpperCase() === 'GET' ? query : body);
  const payload: SignableParams =
    pathTransactionId === undefined
      ? params
      : {
          transactionId: pathTransactionId,
          ...(params.timestamp !== undefined ? { timestamp: params.timestamp } : {}),
          ...(params.nonce !== undefined ? { nonce: params.nonce } : {}),
        };
  return { params, signature: params.signature, payload };
}

/** A body that is not an object (a JSON array, no body at all) carries no parameters. */
function asParams(source: unknown): SignableParams {
  return source !== null && typeof source === 'object' && !Array.isArray(source)
    ? (source as SignableParams)
    : {};
}

/** Absent in the 5.1 sense: missing, null, or a string that is empty after trimming. */
export function isAbsent(value: unknown): boolean {
  return (
    value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
  );
}
