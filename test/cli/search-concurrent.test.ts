/**
 * Three `canopy search` processes started at once on an empty shared index (three terminals, or a
 * script): each prints every hit, none sees a half-built index as damaged, and the index is whole.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCorpus } from '../fixtures/corpus/build';
import { tempDir } from '../storage/tmp';

const REPO = join(__dirname, '../..');
const CLI = join(REPO, 'out/cli/index.cjs');
const HAVE_CLI = existsSync(CLI);
if (!HAVE_CLI) console.warn('[skipped] concurrent canopy search: the CLI is not built (npm run build)');

function search(
  root: string,
  cache: string,
  query: string,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'search', query, '--root', root, '--json', '--limit', '100000'], {
      env: { ...process.env, CANOPY_CACHE_DIR: cache },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    // Decoded as a stream: a character split across two chunks stays whole.
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (c: string) => (out += c));
    child.stderr.on('data', (c: string) => (err += c));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

describe.skipIf(!HAVE_CLI)('canopy search, three at once on an empty index', () => {
  it('every process prints every hit, with no fault, in each of 4 rounds', async () => {
    const root = await tempDir('canopy-conc-root-');
    await buildCorpus(join(root, 'sessions'), { perWriter: 4 });
    const sessions = join(root, 'sessions');
    const reference = await search(sessions, await tempDir('canopy-conc-ref-'), 'role:user');
    expect(reference.code).toBe(0);
    const want = reference.out.split('\n').filter(Boolean).sort();
    expect(want.length).toBeGreaterThan(100);
    for (let round = 0; round < 4; round++) {
      const cache = await tempDir('canopy-conc-cache-');
      const runs = await Promise.all([0, 1, 2].map(() => search(sessions, cache, 'role:user')));
      for (const [i, r] of runs.entries()) {
        const why = `round ${round}, process ${i}: exit ${String(r.code)}\n${r.err}`;
        expect(r.err, why).not.toMatch(/cannot be used|damaged|rebuilt|disk I\/O|no such table|\n\s+at /);
        expect(r.code, why).toBe(0);
        expect(r.out.split('\n').filter(Boolean).sort(), why).toEqual(want);
      }
    }
  }, 240_000);
});
