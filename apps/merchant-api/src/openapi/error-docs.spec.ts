import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorCode } from '@app/errors';

describe('docs/errors.md', () => {
  const text = readFileSync(join(__dirname, '../../../../docs/errors.md'), 'utf8');

  it.each(Object.values(ErrorCode))('explains %s', (code) => {
    expect(text).toContain(`\`${code}\``);
  });
});
