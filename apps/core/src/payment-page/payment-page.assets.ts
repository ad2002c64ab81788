import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Injectable } from '@nestjs/common';
import type { PageAssets } from './payment-page.view';

export interface PageAsset {
  body: Buffer;
  contentType: string;
  version: string;
}

const FILES: Record<string, string> = {
  'payment-page.js': 'text/javascript; charset=utf-8',
  'payment-page.css': 'text/css; charset=utf-8',
};

/**
 * Where the page's script and stylesheet live. tsc does not copy non-TypeScript files, so a
 * build copies `assets/` next to the compiled module; when it has not, the source tree the
 * build came from is used (dist/apps/core/src/payment-page → the repository root is 5 up).
 */
export function findAssetsDir(moduleDir: string = __dirname): string {
  const candidates = [
    join(moduleDir, 'assets'),
    resolve(moduleDir, '../../../../../apps/core/src/payment-page/assets'),
  ];
  const found = candidates.find((dir) =>
    Object.keys(FILES).every((name) => existsSync(join(dir, name))),
  );
  if (!found) throw new Error(`payment page assets not found; looked in ${candidates.join(', ')}`);
  return found;
}

/**
 * The page's own first-party script and stylesheet, read once at boot. Their URLs carry a
 * content hash, so they can be cached for long while a new release is picked up at once.
 */
@Injectable()
export class PaymentPageAssets {
  private readonly assets = new Map<string, PageAsset>();

  constructor() {
    const dir = findAssetsDir();
    for (const [name, contentType] of Object.entries(FILES)) {
      const body = readFileSync(join(dir, name));
      const version = createHash('sha256').update(body).digest('hex').slice(0, 16);
      this.assets.set(name, { body, contentType, version });
    }
  }

  get(name: string): PageAsset | undefined {
    return this.assets.get(name);
  }

  /** Relative to `/pay/<id>`: see the layout in payment-page.view.ts. */
  paths(): PageAssets {
    const js = this.assets.get('payment-page.js')!;
    const css = this.assets.get('payment-page.css')!;
    return {
      scriptPath: `assets/payment-page.js?v=${js.version}`,
      stylePath: `assets/payment-page.css?v=${css.version}`,
    };
  }
}
