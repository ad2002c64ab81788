import { HttpStatus, Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import multer, { MulterError } from 'multer';
import { MAX_DOCUMENT_BYTES } from '@app/documents';
import { AppException, ErrorCode } from '@app/errors';

/**
 * Reads the proof upload's multipart body before the guard runs, because the signature sits in
 * the form's text fields. Memory storage with hard limits: one file of at most 10 MB, a handful
 * of short text fields; nothing is written to disk, so nothing is left behind. Without a public
 * token the guard refuses the request anyway, so its upload is not even read.
 */
@Injectable()
export class ProofUploadMiddleware implements NestMiddleware {
  private readonly upload = multer({
    storage: multer.memoryStorage(),
    limits: {
      fileSize: MAX_DOCUMENT_BYTES,
      files: 1,
      fields: 8,
      parts: 10,
      fieldSize: 1024,
      fieldNameSize: 64,
      headerPairs: 20,
    },
  }).single('document');

  use(request: Request, response: Response, next: NextFunction): void {
    const publicToken = request.headers['x-public-token'];
    if (typeof publicToken !== 'string' || publicToken.trim() === '') return next();
    this.upload(request, response, (error?: unknown) =>
      next(error ? uploadFailure(error) : undefined),
    );
  }
}

export function uploadFailure(error: unknown): AppException {
  if (error instanceof MulterError) {
    if (error.code === 'LIMIT_FILE_SIZE')
      return new AppException(ErrorCode.FILE_TOO_LARGE, HttpStatus.PAYLOAD_TOO_LARGE);
    const reason: Partial<Record<MulterError['code'], string>> = {
      LIMIT_FILE_COUNT: 'only one file may be sent',
      LIMIT_UNEXPECTED_FILE: 'only one file may be sent, in the field "document"',
      LIMIT_PART_COUNT: 'too many parts',
      LIMIT_FIELD_COUNT: 'too many fields',
      LIMIT_FIELD_VALUE: 'a field value is too long',
      LIMIT_FIELD_KEY: 'a field name is too long',
    };
    return new AppException(ErrorCode.INVALID_REQUEST, HttpStatus.BAD_REQUEST, [
      { field: error.field ?? 'body', errors: [reason[error.code] ?? error.message] },
    ]);
  }
  // busboy's own refusals: truncated or malformed multipart, an aborted upload.
  return new AppException(ErrorCode.INVALID_REQUEST, HttpStatus.BAD_REQUEST, [
    { field: 'body', errors: ['malformed or incomplete multipart body'] },
  ]);
}
