import { join, resolve } from 'node:path';
import { findAssetsDir, PaymentPageAssets } from './payment-page.assets';

describe('payment page assets', () => {
  const source = join(__dirname, 'assets');

  it('finds the script and stylesheet beside the module, and from a build without them in the source tree', () => {
    expect(findAssetsDir(__dirname)).toBe(source);
    const builtModuleDir = resolve(__dirname, '../../../../dist/apps/core/src/payment-page');
    expect(findAssetsDir(builtModuleDir)).toBe(source);
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
