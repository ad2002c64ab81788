import { HttpStatus } from '@nestjs/common';
import { AppException, ErrorCode } from '@app/errors';
import {
  CoreCreateResult,
  CoreReply,
  CoreStatusResult,
  TransportFailure,
} from './core-client.types';

/**
 * Pure mapping of the core's replies and failures onto results or merchant-facing errors
 * (decisions.md section 2). No I/O here, so every rule is unit-tested on recorded replies.
 *
 * - 2xx JSON: the result; a create reply without a transaction id is 500 ERROR_CORE_INVALID_RESPONSE.
 * - 4xx/5xx JSON: the core's status passed on, `{ message: ERROR_CORE_REQUEST_FAILED, details: <core body> }`;
 *   a repeated paymentId keeps its own code, ERROR_DUPLICATE_PAYMENT_ID (decisions.md section 3).
 * - The core's own check of the merchant's access flags keeps its code and status (403
 *   ERROR_ACCESS_*_DISABLED, 404 ERROR_MERCHANT_NOT_FOUND): the same answer the guard gives, for
 *   the moments after an operator's change when the guard's cached flags are not yet updated.
 * - The core refusing our service token is our misconfiguration, not the merchant's: 502.
 * - Anything that is not a JSON object (an HTML error page, a proxy's text) is 502: it is never
 *   shown to the merchant.
 * - No reply at all: 504 on a timeout, 502 otherwise.
 */

/** Refusals the core makes with the merchant API's own codes, passed on as they are. */
const MERCHANT_REFUSALS = new Map<string, HttpStatus>([
  [ErrorCode.ACCESS_PAYIN_DISABLED, HttpStatus.FORBIDDEN],
  [ErrorCode.ACCESS_PAYOUT_DISABLED, HttpStatus.FORBIDDEN],
  [ErrorCode.MERCHANT_NOT_FOUND, HttpStatus.NOT_FOUND],
]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ECONNABORTED', 'ESOCKETTIMEDOUT']);

export function parseCreateReply(reply: CoreReply): CoreCreateResult {
  const body = successBody(reply);
  const transactionId = body.transactionId;
  if (typeof transactionId !== 'string' || !UUID.test(transactionId)) {
    throw new AppException(ErrorCode.CORE_INVALID_RESPONSE, HttpStatus.INTERNAL_SERVER_ERROR);
  }
  return { transactionId: transactionId.toLowerCase(), created: body.created !== false };
}

export function parseStatusReply(reply: CoreReply): CoreStatusResult {
  const body = successBody(reply);
  return {
    transactionId: typeof body.transactionId === 'string' ? body.transactionId : null,
    status: typeof body.status === 'string' ? body.status : null,
  };
}

/** The error a call that got no reply becomes. */
export function transportFailure(failure: TransportFailure): AppException {
  if (failure.code && TIMEOUT_CODES.has(failure.code)) {
    return new AppException(ErrorCode.CORE_REQUEST_FAILED, HttpStatus.GATEWAY_TIMEOUT, {
      reason: 'the core did not answer in time',
    });
  }
  return new AppException(ErrorCode.CORE_REQUEST_FAILED, HttpStatus.BAD_GATEWAY, {
    reason: 'the core could not be reached',
  });
}

/** A 2xx reply's JSON object; anything else is thrown as the matching merchant-facing error. */
function successBody(reply: CoreReply): Record<string, unknown> {
  const body = jsonObject(reply);
  if (reply.status >= 200 && reply.status < 300) {
    if (body) return body;
    throw invalidReply(reply);
  }
  throw failedReply(reply, body);
}

function failedReply(reply: CoreReply, body: Record<string, unknown> | null): AppException {
  if (!body || reply.status < 400 || reply.status > 599) return invalidReply(reply);
  const refusal =
    typeof body.message === 'string' ? MERCHANT_REFUSALS.get(body.message) : undefined;
  if (refusal === reply.status) return new AppException(body.message as ErrorCode, refusal);
  if (reply.status === HttpStatus.UNAUTHORIZED || reply.status === HttpStatus.FORBIDDEN) {
    return new AppException(ErrorCode.CORE_REQUEST_FAILED, HttpStatus.BAD_GATEWAY, {
      reason: 'the core refused the merchant API service credentials',
    });
  }
  if (reply.status === HttpStatus.CONFLICT && body.message === ErrorCode.DUPLICATE_PAYMENT_ID) {
    return new AppException(ErrorCode.DUPLICATE_PAYMENT_ID, HttpStatus.CONFLICT, body.details);
  }
  return new AppException(ErrorCode.CORE_REQUEST_FAILED, reply.status, body);
}

function invalidReply(reply: CoreReply): AppException {
  return new AppException(ErrorCode.CORE_REQUEST_FAILED, HttpStatus.BAD_GATEWAY, {
    reason: 'the core answered with an unreadable reply',
    coreStatus: reply.status,
  });
}

function jsonObject(reply: CoreReply): Record<string, unknown> | null {
  if (reply.contentType && !/\bjson\b/i.test(reply.contentType)) return null;
  try {
    const parsed: unknown = JSON.parse(reply.body);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
