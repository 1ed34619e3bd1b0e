import { describe, expect, it } from 'vitest';
import { cli } from './run-cli';
import { header, tempDir, user, writeSession } from '../repo/helpers';

const cliJson = (...argv: string[]) => cli(...argv, '--json');

const deep = '['.repeat(5000) + ']'.repeat(5000);

/** A pi-shaped message line whose text is replaced by `raw` (not escaped: the line may break). */
function withRaw(id: string, parentId: string | null, raw: string): string {
  return JSON.stringify(user(id, parentId, 'PLACEHOLDER')).replace('"PLACEHOLDER"', raw);
}

describe('canopy context/tree on damaged bodies', () => {
  it('a body that is not JSON is an invalid_json issue of its line; every file gets its line', async () => {
    const dir = await tempDir();
    const bad = await writeSession(dir, 'bad.jsonl', [
      header('s1', '/p'),
      user('a', null, 'one'),
      withRaw('b', 'a', '"wo"rd"'),
      user('c', 'a', 'three'),
    ]);
    const nul = await writeSession(dir, 'nul.jsonl', [
      header('s2', '/p'),
      user('a', null, 'one'),
      withRaw('b', 'a', '"x\u0000y"'),
    ]);
    const good = await writeSession(dir, 'good.jsonl', [header('s3', '/p'), user('a', null, 'one')]);
    for (const command of ['context', 'tree']) {
      const r = await cliJson(command, bad, nul, good);
      expect(r.code, r.err).toBe(0);
      expect(r.json.map((j) => j.file)).toEqual([bad, nul, good]);
      expect(r.json[0]!.issues).toContainEqual(expect.objectContaining({ line: 3, kind: 'invalid_json' }));
      expect(r.json[1]!.issues).toContainEqual(expect.objectContaining({ line: 3, kind: 'invalid_json' }));
      expect(r.json[2]!.issues).toEqual([]);
    }
    const ctx = await cliJson('context', bad);
    expect(ctx.json[0]!.contextEntryIds).toEqual(['a', 'c']);
  });

  it('a body nested 5,000 deep is shown cut, with a too_deep issue at its line', async () => {
    const dir = await tempDir();
    const file = await writeSession(dir, 'deep.jsonl', [
      header('s1', '/p'),
      '',
      user('a', null, 'one'),
      withRaw('b', 'a', deep),
    ]);
    const hdr = await writeSession(dir, 'hdr.jsonl', [
      JSON.stringify(header('s2', '/p', { x: 'X' })).replace('"X"', deep),
      user('a', null, 'one'),
    ]);
    const r = await cliJson('context', file, hdr);
    expect(r.code, r.err).toBe(0);
    expect(r.json).toHaveLength(2);
    expect(r.json[0]!.contextEntryIds).toEqual(['a', 'b']);
    expect(r.json[0]!.issues).toContainEqual(expect.objectContaining({ line: 4, kind: 'too_deep' }));
    expect(JSON.stringify(r.json[0]!.context)).toContain('nested deeper than 1000 levels');
    const t = await cliJson('tree', hdr);
    expect(t.code, t.err).toBe(0);
    expect(t.json[0]!.issues).toContainEqual(expect.objectContaining({ line: 1, kind: 'too_deep' }));
  });
});
