import 'reflect-metadata';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { getMetadataStorage, Matches } from 'class-validator';
import { oldGenerationBytesPerCall } from '../../../test/support/v8-heap';
import { createValidationPipe } from './validation';

const ROOT = join(__dirname, '..', '..', '..');

/** Every DTO source file of both apps and the libs (`dto/` folders, `*.dto.ts`). */
function dtoFiles(): string[] {
  return ['apps', 'libs']
    .flatMap((top) =>
      readdirSync(join(ROOT, top), { recursive: true, encoding: 'utf8' }).map((file) =>
        join(ROOT, top, file),
      ),
    )
    .filter(
      (file) =>
        file.endsWith('.ts') &&
        !file.endsWith('.spec.ts') &&
        (file.includes('/dto/') || file.endsWith('.dto.ts')),
    );
}

describe('validated DTOs', () => {
  // The pipe runs with `whitelist`: a field without a class-validator decorator is deleted from
  // every instance. Class fields exist on each instance even when the client did not send them,
  // so such a field costs a `delete` on every request, after which V8 keeps the DTO as a slow
  // dictionary-mode object (docs/benchmarks.md). Fields the guard checks carry @CheckedByGuard()
  // (an @Allow()).
  it('declare no field that the validation pipe would delete on every request', async () => {
    const storage = getMetadataStorage();
    const undecorated: string[] = [];
    let checked = 0;
    for (const file of dtoFiles()) {
      const exported = (await import(file)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(exported)) {
        if (typeof value !== 'function' || !name.endsWith('Dto')) continue;
        const metadata = storage.getTargetValidationMetadatas(value, '', false, false);
        if (metadata.length === 0) continue; // a response DTO: never validated
        checked++;
        const decorated = new Set(metadata.map((entry) => entry.propertyName));
        const instance = new (value as new () => object)();
        for (const field of Object.keys(instance).filter((key) => !decorated.has(key)))
          undecorated.push(`${relative(ROOT, file)}: ${name}.${field}`);
      }
    }
    expect(checked).toBeGreaterThan(10);
    expect(undecorated).toEqual([]);
  });
});

class ProbeParamsDto {
  @Matches(/^[0-9a-f-]{36}$/)
  id: string;
}

describe('createValidationPipe', () => {
  // Every validated argument used to leave about 280 bytes of garbage in the old generation: the
  // pipe copies its options with `validationError` added, and V8 built a hidden class for each
  // copy. Under (a)'s load that grew the old generation by about 4 MB a second, and a signed
  // read, which validates two arguments, ran 15% slower (docs/benchmarks.md).
  it('validates an argument without leaving garbage in the old generation', async () => {
    const pipe = createValidationPipe();
    const metadata = { type: 'param' as const, metatype: ProbeParamsDto, data: undefined };
    const validate = () =>
      pipe.transform({ id: '3df66b8d-e7e0-4e74-8a15-957b6d5e6ea1' }, metadata) as Promise<unknown>;
    expect(await validate()).toBeInstanceOf(ProbeParamsDto);
    const perCall = await oldGenerationBytesPerCall(validate, { calls: 20_000, warmup: 5_000 });
    expect(perCall).toBeLessThan(50);
  });
});
