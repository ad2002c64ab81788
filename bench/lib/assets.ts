import { cpSync, existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * tsc compiles TypeScript only; files the apps read at run time (the payment page's `assets/`
 * folders) are copied into the harness's build the way a build copies them into dist/.
 * Returns the folders copied, relative to the repository.
 */
export function copyRuntimeAssets(repoRoot: string, buildRoot: string): string[] {
  const copied: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name === 'node_modules') continue;
      const path = join(dir, entry.name);
      if (entry.name === 'assets') {
        cpSync(path, join(buildRoot, relative(repoRoot, path)), { recursive: true });
        copied.push(relative(repoRoot, path));
      } else walk(path);
    }
  };
  for (const top of ['apps', 'libs'])
    if (existsSync(join(repoRoot, top))) walk(join(repoRoot, top));
  return copied;
}
