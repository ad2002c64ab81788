import { HttpStatus } from '@nestjs/common';
import { AppException, ErrorCode } from '@app/errors';
import { isAbsent } from './signed-payload';

export interface ReplayParams {
  /** Unix seconds, when the request carries one. */
  timestamp?: number;
  nonce?: string;
}

const MAX_NONCE_LENGTH = 128;

/**
 * Reads the opt-in replay fields of decisions.md section 3 from an authenticated request's
 * parameters and checks the timestamp window. Pure: the nonce's novelty is the NonceStore's job.
 */
export function readReplayParams(
  params: Record<string, unknown>,
  options: { required: boolean; windowSeconds: number; nowMs: number },
): ReplayParams {
  const timestampAbsent = isAbsent(params.timestamp);
  const nonceAbsent = isAbsent(params.nonce);
  if (options.required && (timestampAbsent || nonceAbsent)) {
    const missing = [timestampAbsent ? 'timestamp' : null, nonceAbsent ? 'nonce' : null].filter(
      (field): field is string => field !== null,
    );
    throw new AppException(
      ErrorCode.SIGNATURE_REQUIRED,
      HttpStatus.UNAUTHORIZED,
      missing.map((field) => ({
        field,
        errors: ['this store requires timestamp and nonce in every signed request'],
      })),
    );
  }

  const result: ReplayParams = {};
  if (!timestampAbsent) {
    const raw = params.timestamp;
    const text = typeof raw === 'number' || typeof raw === 'string' ? String(raw) : '';
    if (!/^\d{1,12}$/.test(text)) {
      throw new AppException(ErrorCode.SIGNATURE_EXPIRED, HttpStatus.UNAUTHORIZED, [
        { field: 'timestamp', errors: ['timestamp must be Unix time in whole seconds'] },
      ]);
    }
    const timestamp = Number(text);
    if (Math.abs(options.nowMs / 1000 - timestamp) > options.windowSeconds) {
      throw new AppException(ErrorCode.SIGNATURE_EXPIRED, HttpStatus.UNAUTHORIZED, [
        {
          field: 'timestamp',
          errors: [`timestamp must be within ${options.windowSeconds} seconds of the server time`],
        },
      ]);
    }
    result.timestamp = timestamp;
  }
  if (!nonceAbsent) {
    const raw = params.nonce;
    const nonce = typeof raw === 'number' || typeof raw === 'string' ? String(raw) : '';
    if (nonce.length === 0 || nonce.length > MAX_NONCE_LENGTH) {
      throw new AppException(ErrorCode.SIGNATURE_INVALID, HttpStatus.UNAUTHORIZED, [
        {
          field: 'nonce',
          errors: [`nonce must be a string of 1 to ${MAX_NONCE_LENGTH} characters`],
        },
      ]);
    }
    result.nonce = nonce;
  }
  return result;
}
