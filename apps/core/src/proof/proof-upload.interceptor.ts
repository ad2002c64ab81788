import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import multer from 'multer';
import { Observable } from 'rxjs';
import { MAX_DOCUMENT_BYTES } from '@app/documents';

/**
 * Parses a proof upload into memory: one file in `document` of at most 10 MB, a few short text
 * fields. Multer's own errors are passed on untouched, so the global filter answers
 * 413 ERROR_FILE_TOO_LARGE for a big file (Nest's FileInterceptor would turn it into a generic
 * 413) and 400 ERROR_INVALID_REQUEST naming the limit for the rest.
 */
const upload = multer({
  storage: multer.memoryStorage(),
  limits: {
    files: 1,
    fileSize: MAX_DOCUMENT_BYTES,
    fields: 8,
    fieldSize: 1024,
    fieldNameSize: 64,
    parts: 9,
    headerPairs: 50,
  },
}).single('document');

@Injectable()
export class ProofUploadInterceptor implements NestInterceptor {
  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    await new Promise<void>((resolve, reject) => {
      upload(http.getRequest<Request>(), http.getResponse<Response>(), (error: unknown) =>
        error ? reject(error as Error) : resolve(),
      );
    });
    return next.handle();
  }
}
