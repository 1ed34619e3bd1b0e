/**
 * The secret radar on a store, in a fresh process (prints one JSON line):
 *   secrets ROOT   scan every session under ROOT in a temp cache folder (the first scan), then
 *                  again with nothing changed (the incremental check), and the findings count
 *                  (the store's text is generated: every finding is a false positive).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SecretsService } from '../electron/secrets';
import { listSessions } from '../electron/repo/sessions';

async function secrets(root: string): Promise<Record<string, unknown>> {
  const cache = mkdtempSync(join(tmpdir(), 'canopy-bench-secrets-'));
  try {
    const paths = (await listSessions([root])).sessions.map((s) => s.path);
    const bytes = paths.reduce((n, p) => n + statSync(p).size, 0);
    const service = new SecretsService({ roots: [root], env: { CANOPY_CACHE_DIR: cache } });
    const t0 = performance.now();
    await service.update(paths);
    const ms = performance.now() - t0;
    const t1 = performance.now();
    await service.update(paths);
    const rescanMs = performance.now() - t1;
    let findings = 0;
    for (const n of (await service.counts()).values()) findings += n;
    return {
      ok: true,
      ms,
      rescanMs,
      sessions: paths.length,
      bytes,
      findings,
      rssMB: process.resourceUsage().maxRSS / 1024,
    };
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

const [cmd, arg] = process.argv.slice(2);
(cmd === 'secrets' && arg ? secrets(arg) : Promise.reject(new Error('usage: child-secrets secrets ROOT')))
  .then((out) => process.stdout.write(`${JSON.stringify(out)}\n`))
  .catch((err: unknown) =>
    process.stdout.write(`${JSON.stringify({ ok: false, error: err instanceof Error ? err.message : String(err) })}\n`),
  );
