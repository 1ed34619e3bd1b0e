/**
 * session.open from the index alone (a `pending` graph), then session.previews and session.flags,
 * must give exactly what the full pass gives (today's session.open of a small file): for every
 * corpus file and a generated session with odd lines, and after an append.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSessionFile } from '../../bench/generate';
import { SessionCatalog } from '../../electron/repo/catalog';
import { graphFromWire, unpackEntryNodes } from '../../electron/shared/entry-nodes';
import type { EntryNodeDto, SessionGraphDto } from '../../electron/shared/dto';
import { makeCorpus, type CorpusHandle } from '../differential/support';
import { sessionsOf } from '../repo/helpers';

let corpus: CorpusHandle;
beforeAll(async () => {
  corpus = await makeCorpus('lazy-open', { perWriter: 12 });
  const gen = join(corpus.root, 'sessions', '--gen--');
  mkdirSync(gen, { recursive: true });
  const path = join(gen, '2026-01-01T00-00-00-000Z_gen.jsonl');
  writeSessionFile(path, { targetBytes: 300_000, seed: 5, scale: 0.2 });
  appendFileSync(path, '\njunk\n\n');
}, 180_000);
afterAll(() => corpus.cleanup());

/** What the index alone must know of a node: everything but the preview and the body flags. */
function indexFields(n: EntryNodeDto): Partial<EntryNodeDto> {
  const out: Partial<EntryNodeDto> = {
    id: n.id,
    parentId: n.parentId,
    type: n.type,
    line: n.line,
    timestamp: n.timestamp,
  };
  if (n.type === 'message' && n.role !== 'unknown') out.role = n.role;
  if (n.targetId !== undefined) out.targetId = n.targetId;
  if (n.checkpoint !== undefined) out.checkpoint = n.checkpoint;
  if (n.firstKeptEntryId !== undefined) out.firstKeptEntryId = n.firstKeptEntryId;
  return out;
}

function pick(n: Partial<EntryNodeDto>): Partial<EntryNodeDto> {
  const keys = [
    'id',
    'parentId',
    'type',
    'line',
    'timestamp',
    'role',
    'targetId',
    'checkpoint',
    'firstKeptEntryId',
  ] as const;
  const out: Record<string, unknown> = {};
  for (const k of keys) if (n[k] !== undefined) out[k] = n[k];
  return out as Partial<EntryNodeDto>;
}

function withoutEntries(g: SessionGraphDto): Omit<SessionGraphDto, 'entries' | 'pending'> {
  const { entries: _e, pending: _p, ...rest } = g;
  return rest;
}

async function compareAll(): Promise<number> {
  const full = new SessionCatalog({ roots: [join(corpus.root, 'sessions')], lazyAboveBytes: Number.POSITIVE_INFINITY });
  const lazy = new SessionCatalog({ roots: [join(corpus.root, 'sessions')], lazyAboveBytes: 0 });
  const rows = (await full.list()).sessions;
  await lazy.list();
  let compared = 0;
  for (const row of rows) {
    const want = await sessionsOf(full)
      .graph(row.sessionId)
      .then(graphFromWire, () => null);
    const first = await sessionsOf(lazy)
      .graph(row.sessionId)
      .then(graphFromWire, () => null);
    if (want === null) {
      expect(first, row.fileName).toBeNull();
      continue;
    }
    expect(want.pending, row.fileName).toBeUndefined();
    expect(first?.pending, row.fileName).toBe(true);
    // The first frame: everything but the entries' bodies is the same; the nodes' structure too.
    expect(withoutEntries(first!), row.fileName).toEqual(withoutEntries(want));
    expect(
      first!.entries.map((n) => pick(n)),
      row.fileName,
    ).toEqual(want.entries.map(indexFields));
    // Previews of any entries, in batches, before the flags pass.
    const ids = want.entries.map((n) => n.id);
    const previews = {
      ...(await sessionsOf(lazy).get(row.sessionId).previews(ids.slice(0, 7))),
      ...(await sessionsOf(lazy).get(row.sessionId).previews(ids.slice(7))),
    };
    const firstOf = new Map<string, EntryNodeDto>();
    for (const n of want.entries) if (!firstOf.has(n.id)) firstOf.set(n.id, n);
    for (const [id, n] of firstOf) {
      const { id: _i, parentId: _p, type: _t, line: _l, timestamp: _ts, ...preview } = n;
      expect(previews[id], `${row.fileName} ${id}`).toEqual(preview);
    }
    // The flags pass: every node as the full pass gives it.
    const flagged = await sessionsOf(lazy).flags(row.sessionId);
    expect(unpackEntryNodes(flagged.entries), row.fileName).toEqual(want.entries);
    compared++;
  }
  return compared;
}

describe('lazy session.open = full pass', () => {
  it('on every corpus file and a generated session', async () => {
    expect(await compareAll()).toBeGreaterThan(30);
  }, 240_000);

  it('previews come from a cache bounded by bytes', async () => {
    const { SessionStore } = await import('../../electron/repo/session-store');
    const path = join(corpus.root, 'sessions', '--gen--', '2026-01-01T00-00-00-000Z_gen.jsonl');
    const open = await new SessionStore().session(path);
    const s = open.live.session;
    const ids = s.entries.map((e) => e.id);
    // A tiny bound keeps answering right (each preview is read again when it was dropped).
    const small = open.bodies.byId(s, ids, 1);
    expect(open.bodies.byId(s, ids, 1)).toEqual(small);
    expect(Object.keys(small).length).toBe(new Set(ids).size);
  });
});
