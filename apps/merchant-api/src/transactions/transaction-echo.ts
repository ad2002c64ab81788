import { HttpStatus } from '@nestjs/common';
import { AppException, ErrorCode } from '@app/errors';

/**
 * merchant-api.md 5.1 rule 2: path operations also send `transactionId` in the query or body.
 * The signature covers the path value; an echo that names another transaction is refused
 * instead of silently acting on the path.
 */
export function assertEchoMatchesPath(pathTransactionId: string, echoed: string | undefined): void {
  if (echoed !== undefined && echoed.toLowerCase() !== pathTransactionId.toLowerCase()) {
    throw new AppException(ErrorCode.INVALID_REQUEST, HttpStatus.BAD_REQUEST, [
      {
        field: 'transactionId',
        errors: ['transactionId must equal the transactionId of the path'],
      },
    ]);
  }
}
