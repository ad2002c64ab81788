import { MulterError } from 'multer';
import { ErrorCode } from '@app/errors';
import { uploadFailure } from './proof-upload.middleware';

describe('proof upload failures', () => {
  it('maps a file over 10 MB to 413 ERROR_FILE_TOO_LARGE', () => {
    const error = uploadFailure(new MulterError('LIMIT_FILE_SIZE', 'document'));
    expect([error.status, error.code]).toEqual([413, ErrorCode.FILE_TOO_LARGE]);
  });

  it.each([
    'LIMIT_FILE_COUNT',
    'LIMIT_UNEXPECTED_FILE',
    'LIMIT_PART_COUNT',
    'LIMIT_FIELD_COUNT',
    'LIMIT_FIELD_VALUE',
  ] as const)('maps %s to 400 ERROR_INVALID_REQUEST naming the field', (code) => {
    const error = uploadFailure(new MulterError(code, 'document'));
    expect([error.status, error.code]).toEqual([400, ErrorCode.INVALID_REQUEST]);
    expect(error.details).toEqual([{ field: 'document', errors: [expect.any(String)] }]);
  });

  it('maps a truncated or aborted multipart body to 400 without echoing the parser message', () => {
    const error = uploadFailure(new Error('Unexpected end of form'));
    expect([error.status, error.code]).toEqual([400, ErrorCode.INVALID_REQUEST]);
    expect(JSON.stringify(error.details)).not.toContain('Unexpected end of form');
  });
});
