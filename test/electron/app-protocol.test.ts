import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appProtocolHandler } from '../../electron/app-protocol';
import { APP_URL, isAppUrl } from '../../electron/shared/app-origin';

const base = mkdtempSync(join(tmpdir(), 'canopy-app-protocol-'));
const dir = join(base, 'renderer');
mkdirSync(join(dir, 'assets'), { recursive: true });
writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Canopy</title>');
writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)');
writeFileSync(join(base, 'secret.txt'), 'do not serve');
symlinkSync(join(base, 'secret.txt'), join(dir, 'assets', 'link.txt'));
const handle = appProtocolHandler(dir);
const get = (url: string, method = 'GET') => handle({ url, method });

describe('the app:// protocol', () => {
  it('serves the renderer folder with the CSP header', async () => {
    const index = await get(APP_URL);
    expect(index.status).toBe(200);
    expect(await index.text()).toContain('<title>Canopy</title>');
    expect(index.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');
    const js = await get('app://canopy/assets/app.js');
    expect(js.headers.get('content-type')).toContain('text/javascript');
  });

  it('refuses paths out of the folder, other hosts and methods', async () => {
    for (const url of [
      'app://canopy/../secret.txt',
      'app://canopy/%2e%2e/secret.txt',
      'app://canopy/assets/..%2f..%2fsecret.txt',
      'app://canopy/assets/link.txt',
      'app://canopy/%00',
      'app://canopy/missing.js',
    ]) {
      const r = await get(url);
      expect(r.status, url).toBe(404);
      expect(await r.text()).not.toContain('do not serve');
    }
    expect((await get('app://other/index.html')).status).toBe(403);
    expect((await get('file:///etc/passwd')).status).toBe(403);
    expect((await get(APP_URL, 'POST')).status).toBe(405);
    expect((await get('app://canopy/missing')).headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('knows its own URLs', () => {
    expect(isAppUrl('app://canopy/index.html#/s/1')).toBe(true);
    expect(isAppUrl('app://canopy.evil/index.html')).toBe(false);
    expect(isAppUrl('https://canopy/index.html')).toBe(false);
  });
});
