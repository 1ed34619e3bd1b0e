// Shared by the e2e harness (test/e2e/harness.ts) and the rendering benchmark (bench/render.mjs):
// where Chromium is, the flags it runs with, and rebuilding the renderer bundle when its sources are
// newer than it. Plain JS (with chromium-env.d.mts) so that bench/render.mjs runs under bare Node.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
export const RENDERER_DIR = join(REPO, 'out/renderer');
export const CHROMIUM = process.env.CANOPY_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_MISSING = `no Chromium at ${CHROMIUM} (install the Debian "chromium" package or set CANOPY_CHROMIUM)`;
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function newestMtime(dir) {
  let newest = 0;
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop();
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const s = statSync(p);
      if (s.isDirectory()) stack.push(p);
      else newest = Math.max(newest, s.mtimeMs);
    }
  }
  return newest;
}

/** Builds the renderer when the bundle is missing or older than renderer/ (build output: all, or errors only when quiet). */
export function ensureRendererBuilt({ quiet = false } = {}) {
  const index = join(RENDERER_DIR, 'index.html');
  const stale = !existsSync(index) || statSync(index).mtimeMs < newestMtime(join(REPO, 'renderer'));
  if (!stale) return;
  const r = spawnSync('npx', ['electron-vite', 'build'], {
    cwd: REPO,
    stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit',
    shell: process.platform === 'win32',
  });
  if (r.status !== 0 || !existsSync(index)) throw new Error('building the renderer failed');
}
