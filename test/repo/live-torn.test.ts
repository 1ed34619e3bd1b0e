import { appendFile, stat } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { readSession } from '../../electron/core';
import { SessionCatalog } from '../../electron/repo/catalog';
import { WRITER_IDLE_MS } from '../../electron/repo/session-file';
import { runCli } from '../../electron/cli';
import { header, jsonl, tempDir, user, writeSession } from './helpers';
import { sessionsOf } from './helpers';

const ID = '019c0000-0000-7000-8000-0000000000aa';

async function tornKinds(catalog: SessionCatalog): Promise<string[]> {
  return sessionsOf(catalog).with(ID, (l) => readSession(l.session).issues.map((i) => `${i.line}:${i.kind}`));
}

describe('an unfinished last line in the live view', () => {
  it('is pi still writing while the file is fresh, torn once the writer is idle; the CLI always reports it', async () => {
    const dir = await tempDir();
    const path = await writeSession(dir, 's.jsonl', [header(ID, '/p'), user('a', null, 'one')]);
    // pi is mid-way through appending line 3.
    await appendFile(path, JSON.stringify(user('b', 'a', 'two')).slice(0, 40));
    const mtime = (await stat(path)).mtimeMs;
    let now = mtime + 100;
    const catalog = new SessionCatalog({ roots: [dir], now: () => now });
    await catalog.list();
    expect(await tornKinds(catalog)).toEqual([]);
    const [, open] = await Promise.all([catalog.list(), sessionsOf(catalog).graph(ID)]);
    expect(open.issues).toEqual([]);
    now = mtime + WRITER_IDLE_MS;
    expect(await tornKinds(catalog)).toEqual(['3:torn_last_line']);
    expect((await sessionsOf(catalog).graph(ID)).issues.map((i) => i.kind)).toEqual(['torn_last_line']);

    let out = '';
    await runCli(['context', path, '--json'], {
      stdout: { write: (s: string) => (out += s) },
      stderr: { write: () => undefined },
    });
    expect((JSON.parse(out) as { issues: { kind: string }[] }).issues.map((i) => i.kind)).toEqual(['torn_last_line']);
  });

  it('a line finished later reads as an entry, with no issue left behind', async () => {
    const dir = await tempDir();
    const path = await writeSession(dir, 's.jsonl', [header(ID, '/p'), user('a', null, 'one')]);
    const line = jsonl([user('b', 'a', 'two')]);
    await appendFile(path, line.slice(0, 30));
    const catalog = new SessionCatalog({ roots: [dir], now: () => Date.now() + 10 * WRITER_IDLE_MS });
    await catalog.list();
    expect(await tornKinds(catalog)).toEqual(['3:torn_last_line']);
    await appendFile(path, line.slice(30));
    expect(await tornKinds(catalog)).toEqual([]);
    expect(await sessionsOf(catalog).with(ID, (l) => readSession(l.session).pathIds)).toEqual(['a', 'b']);
  });
});
