import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findAssetsDir, PaymentPageAssets } from './payment-page.assets';

describe('payment page assets', () => {
  const source = join(__dirname, 'assets');

  it('finds the script and stylesheet beside the module, and from a build without them in the source tree', () => {
    expect(findAssetsDir(__dirname)).toBe(source);
    // A checkout of its own: the repository's dist/ may or may not hold a copy (npm start builds one).
    const root = mkdtempSync(join(tmpdir(), 'payment-page-assets-'));
    try {
      const sourceAssets = join(root, 'apps/core/src/payment-page/assets');
      cpSync(source, sourceAssets, { recursive: true });
      const builtModuleDir = join(root, 'dist/apps/core/src/payment-page');
      mkdirSync(builtModuleDir, { recursive: true });
      expect(findAssetsDir(builtModuleDir)).toBe(sourceAssets);
      cpSync(source, join(builtModuleDir, 'assets'), { recursive: true });
      expect(findAssetsDir(builtModuleDir)).toBe(join(builtModuleDir, 'assets'));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('stops the boot with the places it looked when they are missing', () => {
    expect(() => findAssetsDir('/nowhere/a/b/c/d/e')).toThrow(
      /payment page assets not found; looked in \/nowhere/,
    );
  });

  it('versions each URL by content and serves only its two files', () => {
    const assets = new PaymentPageAssets();
    const paths = assets.paths();
    expect(paths.scriptPath).toMatch(/^assets\/payment-page\.js\?v=[0-9a-f]{16}$/);
    expect(paths.stylePath).toMatch(/^assets\/payment-page\.css\?v=[0-9a-f]{16}$/);
    expect(assets.get('payment-page.js')?.contentType).toBe('text/javascript; charset=utf-8');
    expect(assets.get('payment-page.css')?.contentType).toBe('text/css; charset=utf-8');
    expect(assets.get('../payment-page.service.ts')).toBeUndefined();
    expect(assets.get('constructor')).toBeUndefined();
  });
});
