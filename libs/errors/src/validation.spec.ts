import 'reflect-metadata';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { getMetadataStorage } from 'class-validator';

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
