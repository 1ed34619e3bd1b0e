import { readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { caEntryId } from '../../electron/repo/fork';
import { forkSession } from '../../electron/repo/fork-file';
import { CanopyError } from '../../electron/shared/errors';
import { branchedSession, hashTree, projectDirName, readJsonl, sampleRoot, tempDir, writeSession } from './helpers';

const fixedNow = () => new Date('2026-04-01T12:00:00.000Z');
const fixedId = () => '019d0000-aaaa-7bbb-8ccc-000000000099';
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function branchedFile() {
  const root = await tempDir();
  const lines = branchedSession();
  const path = await writeSession(join(root, projectDirName('/home/alice/proj')), 'src.jsonl', lines);
  return { root, lines, path, byId: new Map(lines.map((l) => [l.id as string, l])) };
}

describe('forkSession (CA)', () => {
  it('forks before a user message into the source directory, re-creating labels with fresh ids', async () => {
    const { root, path, byId } = await branchedFile();
    const before = await hashTree(root);
    const out = await forkSession(
      path,
      { kind: 'fork', entryId: 'u3', position: 'before' },
      { now: fixedNow, newSessionId: fixedId },
    );
    if (!out.ok) throw new Error(out.error.message);
    expect(out.path).toBe(join(dirname(path), '2026-04-01T12-00-00-000Z_019d0000-aaaa-7bbb-8ccc-000000000099.jsonl'));
    expect(out.profile).toBe('ca');
    const written = await readJsonl(out.path);
    expect(written[0]).toEqual({
      type: 'session',
      version: 3,
      id: '019d0000-aaaa-7bbb-8ccc-000000000099',
      timestamp: '2026-04-01T12:00:00.000Z',
      cwd: '/home/alice/proj',
      parentSession: path,
    });
    // Path to the parent of u3 = u1 → a1, then the label on u1 re-created after it.
    expect(written.slice(1, 3)).toEqual([byId.get('u1'), byId.get('a1')]);
    const label = written[3]!;
    expect(written).toHaveLength(4);
    expect(label).toEqual({
      type: 'label',
      id: expect.stringMatching(/^[0-9a-f]{8}$/),
      parentId: 'a1',
      timestamp: byId.get('l1')!.timestamp,
      targetId: 'u1',
      label: 'start',
    });
    expect(byId.has(label.id as string)).toBe(false);
    // What was returned is what was written.
    expect([out.header, ...out.entries]).toEqual(written);
    // Only the new file appeared; the source is byte-identical.
    const after = await hashTree(root);
    expect([...after.keys()].filter((k) => !before.has(k))).toEqual([relative(root, out.path)]);
    for (const [k, h] of before) expect(after.get(k)).toBe(h);
  });

  it('clones the current branch (CA leaf = last line), dropping and re-chaining around labels', async () => {
    const { path, byId } = await branchedFile();
    const out = await forkSession(path, { kind: 'clone' });
    if (!out.ok) throw new Error(out.error.message);
    expect(out.header.id).toMatch(UUID_V7);
    expect(out.path).toBe(
      join(dirname(path), `${(out.header.timestamp as string).replace(/[:.]/g, '-')}_${out.header.id}.jsonl`),
    );
    const written = await readJsonl(out.path);
    expect(written.slice(1, 5)).toEqual(['u1', 'a1', 'u3', 'a3'].map((id) => byId.get(id)));
    expect(written[5]).toEqual({ ...byId.get('n1'), parentId: 'a3' });
    expect(written[6]).toMatchObject({ type: 'label', parentId: 'n1', targetId: 'u1', label: 'start' });
    expect(written).toHaveLength(7);
  });

  it('refuses a fork before a non-user entry and writes nothing', async () => {
    const { root, path } = await branchedFile();
    const before = await hashTree(root);
    const out = await forkSession(path, { kind: 'fork', entryId: 'a1', position: 'before' });
    expect(out).toMatchObject({ ok: false, error: { kind: 'invalid_fork_target' } });
    const unknown = await forkSession(path, { kind: 'fork', entryId: 'nope', position: 'before' });
    expect(unknown.ok).toBe(false);
    expect(await hashTree(root)).toEqual(before);
  });

  it('never overwrites: a taken file name is an already_exists error and the file keeps its bytes', async () => {
    const { path } = await branchedFile();
    const taken = join(dirname(path), '2026-04-01T12-00-00-000Z_019d0000-aaaa-7bbb-8ccc-000000000099.jsonl');
    await writeFile(taken, 'PRECIOUS\n');
    const err = await forkSession(path, { kind: 'clone' }, { now: fixedNow, newSessionId: fixedId }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CanopyError);
    expect((err as CanopyError).code).toBe('already_exists');
    expect(await readFile(taken, 'utf8')).toBe('PRECIOUS\n');
    expect((await readdir(dirname(path))).sort()).toEqual([
      '2026-04-01T12-00-00-000Z_019d0000-aaaa-7bbb-8ccc-000000000099.jsonl',
      'src.jsonl',
    ]);
  });

  it('throws typed file errors for missing files, non-sessions and format 4', async () => {
    const dir = await tempDir();
    const bad = await writeSession(dir, 'bad.jsonl', ['nope']);
    const f4 = await writeSession(dir, 'f4.jsonl', [{ kind: 'header', version: 4, id: 's', createdAt: 1, cwd: '/' }]);
    for (const [p, code] of [
      [join(dir, 'missing.jsonl'), 'not_found'],
      [bad, 'invalid_session'],
      [f4, 'unsupported_format'],
    ] as const) {
      const err = await forkSession(p, { kind: 'clone' }).catch((e: unknown) => e);
      expect((err as CanopyError).code).toBe(code);
    }
    expect((await readdir(dir)).sort()).toEqual(['bad.jsonl', 'f4.jsonl']);
  });
});

describe('forkSession (H3)', () => {
  it('clone without a leaf copies every entry verbatim (detected profile h3)', async () => {
    const { files } = await sampleRoot();
    const source = await readJsonl(files.h3!);
    const out = await forkSession(files.h3!, { kind: 'clone' });
    if (!out.ok) throw new Error(out.error.message);
    expect(out.profile).toBe('h3');
    const written = await readJsonl(out.path);
    expect(written.slice(1)).toEqual(source.slice(1));
    expect(written[0]).toMatchObject({ type: 'session', version: 3, cwd: '/srv/other', parentSession: files.h3 });
  });

  it('fork before a user message copies the path to its parent with ids kept', async () => {
    const { files } = await sampleRoot();
    const source = await readJsonl(files.h3!);
    const out = await forkSession(files.h3!, { kind: 'fork', entryId: 'h3', position: 'before' });
    if (!out.ok) throw new Error(out.error.message);
    expect((await readJsonl(out.path)).slice(1)).toEqual(source.slice(1, 3));
  });
});

describe('caEntryId', () => {
  it('returns 8 hex chars not in the taken set', () => {
    const taken = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const id = caEntryId(taken);
      expect(id).toMatch(/^[0-9a-f]{8}$/);
      expect(taken.has(id)).toBe(false);
      taken.add(id);
    }
  });

  it('falls back to a whole UUID after 100 collisions, as pi does', () => {
    let asked = 0;
    const everythingTaken = { has: () => (asked++, true) } as unknown as Set<string>;
    const id = caEntryId(everythingTaken);
    expect(asked).toBe(100);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
