import { HttpStatus } from '@nestjs/common';
import { ErrorCode } from './error-codes';

/** The one exception services throw: a code, an HTTP status and optional details for the client. */
export class AppException extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: HttpStatus | number,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(code);
    this.name = 'AppException';
  }
}

/** The error body both services answer with. */
export interface ErrorBody {
  message: string;
  details?: unknown;
}
