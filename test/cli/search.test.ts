import { existsSync } from 'node:fs';
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cli } from './run-cli';
import { assistant, hashTree, header, projectDirName, sampleRoot, tempDir, user, writeSession } from '../repo/helpers';

let cache: string;
beforeEach(async () => {
  vi.stubEnv('PI_CODING_AGENT_DIR', await tempDir('canopy-agent-'));
  cache = await tempDir('canopy-cache-');
  vi.stubEnv('CANOPY_CACHE_DIR', cache);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('canopy search', () => {
  it('--json prints one object per hit with sessionId, path, entryId, physical line and snippet; exit 0', async () => {
    const { root, files } = await sampleRoot();
    await writeSession(join(root, projectDirName('/q')), 'damaged.jsonl', [
      header('s2', '/q'),
      '{"broken',
      user('d1', null, 'unrelated'),
    ]);
    const before = await hashTree(root);
    const r = await cli('search', 'other', 'answer', '--root', root, '--json');
    expect(r.code).toBe(0);
    expect(r.json).toEqual([
      expect.objectContaining({
        sessionId: '019c0000-0000-7000-8000-000000000001',
        path: files.branched,
        entryId: 'a3',
        line: 7,
        role: 'assistant',
        snippet: 'other answer',
      }),
    ]);
    // A damaged line and a file that is no session are reported on stderr; the rest is searched.
    expect(r.err).toMatch(/damaged\.jsonl:2: skipped: not valid JSON/);
    expect(r.err).toMatch(/garbage\.jsonl: not searched/);
    expect(await hashTree(root)).toEqual(before);
  });

  it('exit 1 without hits, 2 for a bad query or a bad regex (with a clear message)', async () => {
    const { root } = await sampleRoot();
    expect((await cli('search', 'nothing-like-this', '--root', root)).code).toBe(1);
    const bad = await cli('search', 're:a(b', '--root', root);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/bad query: re: is not a valid regular expression/);
    expect((await cli('search', 'role:nobody', 'x', '--root', root)).code).toBe(2);
    expect((await cli('search', '--root', root)).code).toBe(2);
  });

  it('updates the index first: an appended line is found by the next search', async () => {
    const root = await tempDir('canopy-root-');
    const file = await writeSession(join(root, projectDirName('/p')), 'a.jsonl', [
      header('s1', '/p'),
      user('u1', null, 'first words'),
    ]);
    const first = await cli('search', 'first', '--root', root);
    expect(first.code).toBe(0);
    expect(first.out).toContain(`${file}:2 u1 (user)`);
    await appendFile(file, `${JSON.stringify(assistant('a1', 'u1', 'fresh reply'))}\n`);
    const r = await cli('search', '"fresh reply"', '--root', root, '--json');
    expect(r.json.map((h) => [h.entryId, h.line])).toEqual([['a1', 3]]);
    // The index lives in CANOPY_CACHE_DIR, never under the root.
    expect([...(await hashTree(cache)).keys()].some((k) => k.startsWith('search-index'))).toBe(true);
  });

  it('a cache fault is one line and exit 3 (not a stack trace and exit 1), and the files are searched directly; the folder is left as it was', async () => {
    const { root, files } = await sampleRoot();
    // A folder where the index file would be (one the user made, or another tool's).
    await mkdir(join(cache, 'search-index.sqlite', 'keep'), { recursive: true });
    const r = await cli('search', 'other', 'answer', '--root', root, '--json');
    expect(r.code).toBe(3);
    expect(r.err).toMatch(
      /^canopy search: the search index cannot be used \(.*search-index\.sqlite\): .+: searched the files directly\n/m,
    );
    expect(r.err.match(/searched the files directly/g)).toHaveLength(1);
    expect(r.err).not.toMatch(/\n\s+at /);
    expect(r.json).toEqual([expect.objectContaining({ path: files.branched, entryId: 'a3', line: 7 })]);
    expect(existsSync(join(cache, 'search-index.sqlite', 'keep'))).toBe(true);
  });
});
