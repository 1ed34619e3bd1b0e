// What the Chromium benchmarks (render.mjs, live-render.mjs) share: the built `canopy serve` as a
// child process, Chromium (or the line saying why not), and a percentile.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { CHROMIUM, CHROMIUM_MISSING, ensureRendererBuilt, REPO as repo } from '../test/e2e/chromium-env.mjs';

/** `canopy serve --root ROOT ...args`; resolves with the page's address (token included) and the child. */
export function startServe(root, args = []) {
  return new Promise((resolveUrl, reject) => {
    const child = spawn(process.execPath, [join(repo, 'bin/canopy.cjs'), 'serve', '--root', root, ...args], {
      cwd: repo,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /Open (\S+)/.exec(out);
      if (m) resolveUrl({ url: m[1], child });
    });
    child.on('exit', (code) => reject(new Error(`canopy serve exited ${code}: ${out}`)));
  });
}

/** The p-th percentile of `xs` (null when empty). */
export const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? null : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/** playwright's chromium, the renderer built; null (and the `skipped` line printed) where Chromium is missing. */
export async function chromiumOrSkip() {
  if (!existsSync(CHROMIUM)) {
    console.log(JSON.stringify({ ok: false, skipped: CHROMIUM_MISSING }));
    return null;
  }
  ensureRendererBuilt({ quiet: true });
  return (await import('playwright-core')).chromium;
}
