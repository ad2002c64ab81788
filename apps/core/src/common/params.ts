import { HttpStatus, Injectable, PipeTransform, ArgumentMetadata } from '@nestjs/common';
import { AppException, ErrorCode } from '@app/errors';

const INT4_MAX = 2_147_483_647;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A serial id in the path: a positive integer that fits PostgreSQL's integer. */
@Injectable()
export class SerialIdPipe implements PipeTransform<string, number> {
  transform(value: string, metadata: ArgumentMetadata): number {
    if (!/^[1-9]\d{0,9}$/.test(value) || Number(value) > INT4_MAX) {
      throw new AppException(ErrorCode.INVALID_REQUEST, HttpStatus.BAD_REQUEST, [
        { field: metadata.data ?? 'id', errors: ['must be a positive integer'] },
      ]);
    }
    return Number(value);
  }
}

/** A transaction id in the path: anything but a UUID cannot exist, so it is 404 without a query. */
@Injectable()
export class TransactionIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!UUID.test(value))
      throw new AppException(ErrorCode.TRANSACTION_NOT_FOUND, HttpStatus.NOT_FOUND);
    return value.toLowerCase();
  }
}
