import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { readRawLines } from '../../electron/repo/session-file';
import { SessionStore } from '../../electron/repo/session-store';
import { CanopyError } from '../../electron/shared/errors';
import { assistant, branchedSession, header, jsonl, tempDir, user, writeSession } from './helpers';

let store = new SessionStore();
beforeEach(() => (store = new SessionStore()));
const openSession = (path: string) => store.parsed(path);

describe('SessionStore.parsed', () => {
  it('parses a file into header and entries with physical line numbers', async () => {
    const dir = await tempDir();
    const lines = branchedSession();
    const path = await writeSession(dir, 's.jsonl', [lines[0]!, '', ...lines.slice(1)]);
    const s = await openSession(path);
    expect(s.fatal).toBeUndefined();
    expect(s.header?.id).toBe(lines[0]!.id);
    expect(s.entries.map((e) => [e.id, e.line])).toEqual(lines.slice(1).map((l, i) => [l.id, i + 3]));
  });

  it('reads CRLF files, lines over 1 MiB and a torn last line', async () => {
    const dir = await tempDir();
    const big = user('big', null, 'y'.repeat(1.5 * 1024 * 1024));
    const path = join(dir, 's.jsonl');
    await writeFile(path, `${jsonl([header('s', '/p'), big]).replace(/\n/g, '\r\n')}{"type":"mess`);
    const s = await openSession(path);
    expect(s.entries.map((e) => e.id)).toEqual(['big']);
    expect(JSON.stringify(s.entries[0]!.raw)).toBe(JSON.stringify(big));
    expect(s.issues.map((i) => [i.line, i.kind])).toEqual(expect.arrayContaining([[3, 'torn_last_line']]));
  });

  it('returns the cached parse for an unchanged file and a fresh one after an append', async () => {
    const dir = await tempDir();
    const path = await writeSession(dir, 's.jsonl', [header('s', '/p'), user('u1', null, 'q')]);
    const first = await openSession(path);
    expect(await openSession(path)).toBe(first);
    await appendFile(path, `${JSON.stringify(assistant('a1', 'u1', 'r'))}\n`);
    const second = await openSession(path);
    expect(second).not.toBe(first);
    expect(second.entries.map((e) => e.id)).toEqual(['u1', 'a1']);
  });

  it('keeps the in-memory ids of a migrated v1 file stable while the file is unchanged', async () => {
    const dir = await tempDir();
    const path = await writeSession(dir, 'v1.jsonl', [
      { type: 'session', id: 'v1', timestamp: '2025-11-01T00:00:00.000Z', cwd: '/p' },
      {
        type: 'message',
        timestamp: '2025-11-01T00:00:01.000Z',
        message: { role: 'user', content: 'hi', timestamp: 1 },
      },
      {
        type: 'message',
        timestamp: '2025-11-01T00:00:02.000Z',
        message: { role: 'assistant', content: [], timestamp: 2 },
      },
    ]);
    const ids = (await openSession(path)).entries.map((e) => e.id);
    expect(ids).toHaveLength(2);
    expect((await openSession(path)).entries.map((e) => e.id)).toEqual(ids);
  });

  it('returns a fatal result (not a throw) for non-sessions and format 4', async () => {
    const dir = await tempDir();
    const a = await writeSession(dir, 'a.jsonl', ['garbage']);
    const b = await writeSession(dir, 'b.jsonl', [{ kind: 'header', version: 4, id: 's', createdAt: 1, cwd: '/' }]);
    expect((await openSession(a)).fatal?.code).toBe('invalid_session');
    expect((await openSession(b)).fatal).toEqual({
      code: 'unsupported_format',
      message: 'format 4 is not supported yet',
    });
  });

  it('throws typed errors for a missing path and a directory', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'd.jsonl'));
    for (const [path, code] of [
      [join(dir, 'missing.jsonl'), 'not_found'],
      [join(dir, 'd.jsonl'), 'invalid_session'],
    ] as const) {
      const err = await openSession(path).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CanopyError);
      expect((err as CanopyError).code).toBe(code);
    }
  });

  it('readRawLines gives every physical line with byte offsets', async () => {
    const dir = await tempDir();
    const path = join(dir, 'r.jsonl');
    await writeFile(path, 'a\n\nbé\nc');
    expect(await readRawLines(path)).toEqual([
      { line: 1, text: 'a', complete: true, offset: 0, length: 1 },
      { line: 2, text: '', complete: true, offset: 2, length: 0 },
      { line: 3, text: 'bé', complete: true, offset: 3, length: 3 },
      { line: 4, text: 'c', complete: false, offset: 7, length: 1 },
    ]);
  });
});
