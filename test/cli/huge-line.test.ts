import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from './run-cli';
import { header, jsonl, tempDir, user } from '../repo/helpers';

const cliJson = (...argv: string[]) => cli(...argv, '--json');

/** A session whose line 3 is a hole of `hole` NUL bytes (sparse: nothing is written there), then line 4. */
async function holed(hole: number): Promise<string> {
  const dir = await tempDir();
  const path = join(dir, 'holed.jsonl');
  const head = Buffer.from(jsonl([header('s1', '/p'), user('a', null, 'before')]));
  const tail = Buffer.from('\n' + jsonl([user('b', 'a', 'after the hole')]));
  const fd = openSync(path, 'w');
  writeSync(fd, head, 0, head.length, 0);
  writeSync(fd, tail, 0, tail.length, head.length + hole);
  closeSync(fd);
  return path;
}

/** Search reads around the huge line 3: the hits before and after it, its problem said on stderr. */
async function searchAround(path: string): Promise<void> {
  for (const [word, id] of [
    ['before', 'a'],
    ['hole', 'b'],
  ]) {
    const search = await cli('search', word!, '--root', join(path, '..'), '--json');
    expect(search.code, search.err).toBe(0);
    expect(search.json.map((h) => h.entryId)).toEqual([id]);
    expect(search.err).not.toMatch(/\n\s+at /);
    // Said once, when the file is indexed.
    if (word === 'before')
      expect(search.err).toMatch(/holed\.jsonl:3: skipped: a \d+-byte line is longer than search reads/);
  }
}

describe('a line of 2 GiB and more (a sparse hole of NUL bytes)', () => {
  // tree reads through the same forEachSession as context: one 2 GiB pass each is enough here.
  it('context reports it at its line and shows the rest; search lives through it', async () => {
    const path = await holed(2 ** 31 + 4096);
    const ctx = await cliJson('context', path);
    expect(ctx.code).toBe(0);
    const r = ctx.json[0]!;
    expect(r.pathIds).toEqual(['a', 'b']);
    const kinds = (r.issues as { line: number; kind: string; message: string }[]).map((i) => [i.line, i.kind]);
    expect(kinds).toEqual([
      [3, 'line_over_limit'],
      [3, 'nul_bytes'],
    ]);
    expect(r.issues[1].message).toContain(`${2 ** 31 + 4096} NUL bytes`);
    await searchAround(path);
  }, 120_000);

  it('search: a 600 MiB line is said as a problem, and every other hit of the file is found', async () => {
    await searchAround(await holed(600 * 1024 * 1024));
  }, 120_000);

  it('a shorter NUL run is an invalid_json line with a nul_bytes issue where it is', async () => {
    const path = await holed(3000);
    const r = (await cliJson('context', path)).json[0]!;
    expect(r.pathIds).toEqual(['a', 'b']);
    expect(r.issues.map((i: { line: number; kind: string }) => [i.line, i.kind])).toEqual([
      [3, 'invalid_json'],
      [3, 'nul_bytes'],
    ]);
    expect(r.issues[1].message).toContain('3000 NUL bytes from column 1');
  });
});
