/**
 * Live tail: an open session follows its file by reading only the appended bytes. After every
 * append (cut anywhere: mid-line, mid-character, between \r and \n) the followed session must
 * equal a fresh parse of the file; truncation and replacement re-index; the catalog emits
 * `session.appended` and shows the new entries.
 */
import { appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeSessionFile } from '../../bench/generate';
import { createAppServices } from '../../electron/app-services';
import { LiveSession } from '../../electron/repo/live';
import { parseFileEagerly } from '../../electron/repo/session-file';
import { SessionStore } from '../../electron/repo/session-store';
import { graphFromWire, unpackEntryNodes } from '../../electron/shared/entry-nodes';
import type { SessionAppendedDto } from '../../electron/shared/live-dto';
import type { Events } from '../../electron/shared/contract';

type SessionsChangedEvent = Events['sessions.changed'];
import { expectSameDerived } from './support';
import { readFileSync } from 'node:fs';

const root = mkdtempSync(join(tmpdir(), 'canopy-live-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** mulberry32 */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const H = '{"type":"session","version":3,"id":"live","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}';
const msg = (id: string, parentId: string | null, text: string, role = 'user'): string =>
  JSON.stringify({
    type: 'message',
    id,
    parentId,
    timestamp: `2026-01-01T00:00:${String(id.length % 60).padStart(2, '0')}.000Z`,
    message: { role, content: text, timestamp: 1 },
  });

describe('LiveSession.refresh', () => {
  it('equals a fresh parse after every piece of a file appended in random pieces', async () => {
    const source = join(root, 'source.jsonl');
    writeSessionFile(source, { targetBytes: 120_000, seed: 5, scale: 0.1 });
    // Some odd lines too: CRLF, a blank line, garbage, a label and a leaf entry (unicode text).
    const extra = [
      `${msg('x1', null, 'crlf line é🌳')}\r`,
      '',
      'garbage',
      JSON.stringify({
        type: 'label',
        id: 'x2',
        parentId: 'x1',
        timestamp: '2026-01-01T00:00:01.000Z',
        targetId: 'x1',
        label: 'L',
      }),
      msg('x1', 'x2', 'duplicate id'),
    ].join('\n');
    const full = Buffer.concat([readFileSync(source), Buffer.from(`${extra}\n`)]);
    const path = join(root, 'appended.jsonl');
    const first = 2000;
    writeFileSync(path, full.subarray(0, first));
    const live = await LiveSession.open(path);
    const next = rng(42);
    let at = first;
    let steps = 0;
    while (at < full.length) {
      const size = next() < 0.3 ? 1 + Math.floor(next() * 8) : 1 + Math.floor(next() * 6000);
      const end = Math.min(full.length, at + size);
      appendFileSync(path, full.subarray(at, end));
      at = end;
      const before = live.offset;
      const r = await live.refresh();
      expect(r.kind).not.toBe('reindexed');
      expect(live.offset).toBeGreaterThanOrEqual(before);
      // Comparing everything after every piece is slow; do it often enough to hit every kind of cut.
      if (steps++ % 4 === 0 || at === full.length)
        expectSameDerived(live.session, await parseFileEagerly(path), `after ${at} bytes`);
    }
    expect(steps).toBeGreaterThan(20);
    expect(live.offset).toBe(full.length);
    live.close();
  }, 120_000);

  it('keeps a partial last line provisional, as a fresh open sees it, until its newline arrives', async () => {
    const path = join(root, 'partial.jsonl');
    writeFileSync(path, `${H}\n${msg('a', null, 'q')}\n`);
    const live = await LiveSession.open(path);
    const line = msg('b', 'a', 'complete JSON without newline');
    appendFileSync(path, line);
    await live.refresh();
    expect(live.session.entries.map((e) => e.id)).toEqual(['a', 'b']);
    expectSameDerived(live.session, await parseFileEagerly(path), 'valid partial');
    appendFileSync(path, `\n${msg('c', 'b', 'r').slice(0, 20)}`);
    await live.refresh();
    expect(live.session.issues.map((i) => i.kind)).toEqual(['torn_last_line']);
    expectSameDerived(live.session, await parseFileEagerly(path), 'torn partial');
    appendFileSync(path, `${msg('c', 'b', 'r').slice(20)}\n`);
    const r = await live.refresh();
    expect(r).toEqual({ kind: 'appended', added: 1 });
    expect(live.session.issues).toEqual([]);
    expect(live.session.entries.map((e) => [e.id, e.line])).toEqual([
      ['a', 2],
      ['b', 3],
      ['c', 4],
    ]);
    expect((live.session.entries[2]!.raw as { message: { content: string } }).message.content).toBe('r');
    live.close();
  });

  it('re-indexes a truncated or replaced file, and a file that had no header yet', async () => {
    const path = join(root, 'reset.jsonl');
    writeFileSync(path, `${H}\n${msg('a', null, 'q')}\n${msg('b', 'a', 'r')}\n`);
    const live = await LiveSession.open(path);
    truncateSync(path, H.length + 1);
    appendFileSync(path, `${msg('z', null, 'new start')}\n`);
    let r = await live.refresh();
    expect(r.kind).toBe('reindexed');
    expect(live.session.entries.map((e) => e.id)).toEqual(['z']);

    const other = join(root, 'reset-new.jsonl');
    writeFileSync(other, `${H}\n${msg('n', null, 'replacement file, longer than before ........................')}\n`);
    renameSync(other, path);
    r = await live.refresh();
    expect(r).toMatchObject({ kind: 'reindexed', reason: 'replaced' });
    expect(live.session.entries.map((e) => e.id)).toEqual(['n']);
    expect((live.session.entries[0]!.raw as { id: string }).id).toBe('n');

    const empty = join(root, 'empty.jsonl');
    writeFileSync(empty, H.slice(0, 10));
    const grows = await LiveSession.open(empty);
    expect(grows.session.fatal?.code).toBe('invalid_session');
    appendFileSync(empty, `${H.slice(10)}\n${msg('a', null, 'q')}\n`);
    r = await grows.refresh();
    expect(r.kind).toBe('reindexed');
    expect(grows.session.fatal).toBeUndefined();
    expect(grows.session.entries.map((e) => e.id)).toEqual(['a']);
    live.close();
    grows.close();
  });

  it('a store follows the file: an append reads only the new bytes into the same entry list', async () => {
    const store = new SessionStore();
    const openSession = (p: string) => store.parsed(p);
    const followFile = (p: string) => store.follow(p);
    const path = join(root, 'open-follow.jsonl');
    writeFileSync(path, `${H}\n${msg('a', null, 'q')}\n`);
    const first = await openSession(path);
    appendFileSync(path, `${msg('b', 'a', 'r')}\n`);
    const second = await openSession(path);
    expect(second).not.toBe(first);
    expect(second.entries).toBe(first.entries);
    expect(second.entries.map((e) => e.id)).toEqual(['a', 'b']);
    expect(await followFile(path)).toEqual({ kind: 'unchanged', added: 0, sizeBytes: readFileSync(path).length });
    appendFileSync(path, `${msg('c', 'b', 's')}\n`);
    expect(await followFile(path)).toEqual({ kind: 'appended', added: 1, sizeBytes: readFileSync(path).length });
    rmSync(path);
    expect((await followFile(path)).kind).toBe('removed');
  });
});

describe('catalog watch', () => {
  it('emits session.appended with the new size, and session.open shows the appended entries', async () => {
    const sessions = join(root, 'sessions');
    const project = join(sessions, '--p--');
    mkdirSync(project, { recursive: true });
    const path = join(project, '2026-01-01T00-00-00-000Z_live.jsonl');
    writeFileSync(path, `${H}\n${msg('a', null, 'q')}\n`);
    const app = createAppServices({ roots: [sessions], transport: 'http', watch: true });
    const events: Array<[string, unknown]> = [];
    app.bus.subscribe((event, payload) => events.push([event, payload]));
    try {
      const list = await app.handlers['sessions.list']({});
      const sessionId = list.sessions[0]!.sessionId;
      expect(graphFromWire(await app.handlers['session.open']({ sessionId })).entries.map((e) => e.id)).toEqual(['a']);
      await app.watching;
      appendFileSync(path, `${msg('b', 'a', 'r', 'assistant')}\n`);
      const size = readFileSync(path).length;
      const deadline = Date.now() + 5000;
      while (!events.some(([e]) => e === 'session.appended') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      // The event carries the change itself: the new node (with its preview), the new leaf.
      const appended = events.find(([e]) => e === 'session.appended')?.[1] as SessionAppendedDto;
      expect(appended).toMatchObject({ sessionId, sizeBytes: size, seq: 1 });
      expect(unpackEntryNodes(appended.graph!.entries).map((e) => [e.id, e.parentId, e.preview])).toEqual([
        ['b', 'a', 'r'],
      ]);
      expect(appended.graph).toMatchObject({ from: 1, leafId: 'b', pathIds: { keep: 1, add: ['b'] } });
      // The change carries the appended row (its new size): nothing else is relisted.
      const changed = events.find(([e]) => e === 'sessions.changed')?.[1] as SessionsChangedEvent | undefined;
      expect(changed?.reason).toBe('changed');
      expect(changed?.change?.changed.map((r) => [r.sessionId, r.sizeBytes])).toEqual([[sessionId, size]]);
      expect(changed?.change?.added).toEqual([]);
      expect((await app.handlers['sessions.list']({})).sessions[0]!.sizeBytes).toBe(size);
      const g = graphFromWire(await app.handlers['session.open']({ sessionId }));
      expect(g.entries.map((e) => e.id)).toEqual(['a', 'b']);
      expect(g.leafId).toBe('b');
    } finally {
      await app.close();
    }
  });
});
