import { describe, expect, it } from 'vitest';
import { planFork, type ForkEnv, type ForkPlan, type ForkRequest } from '../../electron/core';
import { assistant, compaction, entry, header, label, leaf, session, user } from './helpers';

type Rec = Record<string, any>;

function env(): ForkEnv {
  let n = 0;
  return {
    sourcePath: '/s/src.jsonl',
    newSessionId: 'new-id',
    now: '2026-02-02T00:00:00.000Z',
    newEntryId: () => `n${n++}`,
  };
}
const fork = (entryId: string, position: 'before' | 'at', profile: 'ca' | 'h3' = 'ca'): ForkRequest => ({
  kind: 'fork',
  profile,
  entryId,
  position,
});
const ok = (p: ForkPlan) => {
  if (!p.ok) throw new Error(`expected ok, got ${JSON.stringify(p.error)}`);
  return p;
};
const shape = (p: ForkPlan) => ok(p).entries.map((e) => [e.id, e.parentId, e.type]);

describe('CA fork (createBranchedSession, 1.6.0)', () => {
  it('"before" a user message copies the path to its parent with a CA header', () => {
    const entries = [user('a', null), assistant('b', 'a'), user('c', 'b'), assistant('d', 'c')];
    const s = session(entries, header({ cwd: '/work/x', metadata: { m: 1 } }));
    const p = ok(planFork(s, fork('c', 'before'), env()));
    expect(p.header).toEqual({
      type: 'session',
      version: 3,
      id: 'new-id',
      timestamp: '2026-02-02T00:00:00.000Z',
      cwd: '/work/x',
      parentSession: '/s/src.jsonl',
    });
    expect(p.entries).toEqual([entries[0], entries[1]]);
    expect(p.leafId).toBe('b');
  });

  it('"at" accepts any entry type', () => {
    const s = session([user('a', null), entry('model_change', 'm', 'a', { provider: 'p', modelId: 'x' })]);
    expect(shape(planFork(s, fork('m', 'at'), env()))).toEqual([
      ['a', null, 'message'],
      ['m', 'a', 'model_change'],
    ]);
  });

  it('drops label entries, re-chains parents and re-creates current labels', () => {
    const l1 = label('l1', 'a', 'a', 'first');
    const l2 = label('l2', 'b', 'b', 'second');
    const entries = [
      user('a', null),
      l1,
      assistant('b', 'l1'),
      l2,
      user('c', 'l2'),
      label('l3', 'c', 'zz', 'elsewhere'),
    ];
    const s = session(entries);
    const p = ok(planFork(s, fork('c', 'at'), env()));
    expect(shape(p)).toEqual([
      ['a', null, 'message'],
      ['b', 'a', 'message'],
      ['c', 'b', 'message'],
      ['n0', 'c', 'label'],
      ['n1', 'n0', 'label'],
    ]);
    expect(p.entries[3]).toEqual({
      type: 'label',
      id: 'n0',
      parentId: 'c',
      timestamp: l1.timestamp,
      targetId: 'a',
      label: 'first',
    });
    expect(p.entries[4]).toMatchObject({ targetId: 'b', label: 'second', timestamp: l2.timestamp });
    expect(p.leafId).toBe('n1');
    // every other field of a re-chained entry is kept
    expect({ ...p.entries[1], parentId: 'l1' }).toEqual(entries[2]);
  });

  it('labels from other branches are re-created when their target is kept; cleared labels are not', () => {
    const side = label('ls', 'x', 'a', 'from side');
    const s = session([
      user('a', null),
      assistant('b', 'a'),
      user('x', 'a'),
      side,
      label('lc', 'ls', 'b', 'tmp'),
      label('lc2', 'lc', 'b'),
    ]);
    const p = ok(planFork(s, fork('b', 'at'), env()));
    expect(p.entries.slice(2)).toEqual([
      { type: 'label', id: 'n0', parentId: 'b', timestamp: side.timestamp, targetId: 'a', label: 'from side' },
    ]);
  });

  it('re-created labels follow pi map order (a re-set label keeps its first place)', () => {
    const s = session([
      user('a', null),
      assistant('b', 'a'),
      label('l1', 'b', 'b', 'B'),
      label('l2', 'l1', 'a', 'A'),
      label('l3', 'l2', 'b', 'B2'),
    ]);
    const p = ok(planFork(s, fork('b', 'at'), env()));
    expect(p.entries.slice(2).map((e) => [e.targetId, e.label])).toEqual([
      ['b', 'B2'],
      ['a', 'A'],
    ]);
  });

  it('re-points a compaction firstKeptEntryId that named a dropped label', () => {
    const s = session([
      user('a', null),
      label('l', 'a', 'a', 'x'),
      assistant('b', 'l'),
      compaction('k', 'b', 'l'),
      user('c', 'k'),
    ]);
    const p = ok(planFork(s, fork('c', 'at'), env()));
    const k = p.entries.find((e) => e.id === 'k')!;
    expect(k.firstKeptEntryId).toBe('b');
    expect(k.parentId).toBe('b');
  });

  it('a compaction that names itself as first kept keeps that', () => {
    const s = session([user('a', null), compaction('k', 'a', 'k')]);
    expect(ok(planFork(s, fork('k', 'at'), env())).entries[1]!.firstKeptEntryId).toBe('k');
  });

  it('copies the full path through compactions (no checkpoint cut)', () => {
    const s = session([
      user('a', null),
      assistant('b', 'a'),
      compaction('k', 'b', 'b', { retainedTail: [] }),
      user('c', 'k'),
    ]);
    expect(shape(planFork(s, fork('c', 'at'), env())).map((r) => r[0])).toEqual(['a', 'b', 'k', 'c']);
  });

  it('fresh label ids never collide with kept ids', () => {
    const s = session([user('n0', null), label('l', 'n0', 'n0', 'x')]);
    const p = ok(planFork(s, fork('n0', 'at'), env()));
    expect(p.entries.map((e) => e.id)).toEqual(['n0', 'n1']);
  });

  const refusals: [string, Rec[], ForkRequest, string, string][] = [
    ['unknown entry', [user('a', null)], fork('zz', 'before'), 'invalid_fork_target', 'Invalid entry ID for forking'],
    ['unknown entry (at)', [user('a', null)], fork('zz', 'at'), 'invalid_fork_target', 'Invalid entry ID for forking'],
    [
      'before on an assistant message',
      [user('a', null), assistant('b', 'a')],
      fork('b', 'before'),
      'invalid_fork_target',
      'Invalid entry ID for forking',
    ],
    [
      'before on a custom_message',
      [user('a', null), entry('custom_message', 'cm', 'a', { customType: 'x', content: 'y', display: true })],
      fork('cm', 'before'),
      'invalid_fork_target',
      'Invalid entry ID for forking',
    ],
    [
      'before on a user message whose parent is missing',
      [user('a', 'ghost')],
      fork('a', 'before'),
      'not_found',
      'Entry ghost not found',
    ],
    ['clone of an empty session', [], { kind: 'clone', profile: 'ca' }, 'nothing_to_clone', 'Nothing to clone yet'],
    [
      'clone with null leaf',
      [user('a', null)],
      { kind: 'clone', profile: 'ca', leafId: null },
      'nothing_to_clone',
      'Nothing to clone yet',
    ],
    [
      'clone at an unknown leaf',
      [user('a', null)],
      { kind: 'clone', profile: 'ca', leafId: 'zz' },
      'invalid_fork_target',
      'Invalid entry ID for forking',
    ],
  ];
  it.each(refusals)('refuses: %s', (_name, entries, req, kind, message) => {
    expect(planFork(session(entries), req, env())).toEqual({ ok: false, error: { kind, message } });
  });

  it.each([
    ['null parent', null],
    ['"" parent', ''],
  ])('"before" the first prompt (%s) starts an empty session that records its parent', (_n, parentId) => {
    const s = session([user('a', parentId), assistant('b', 'a')]);
    const p = ok(planFork(s, fork('a', 'before'), env()));
    expect(p.entries).toEqual([]);
    expect(p.leafId).toBeNull();
    expect(p.header.parentSession).toBe('/s/src.jsonl');
  });

  it('clone = fork "at" the current leaf (or the given one)', () => {
    const s = session([user('a', null), assistant('b', 'a'), user('c', 'a'), label('l', 'c', 'b', 'x')]);
    expect(shape(planFork(s, { kind: 'clone', profile: 'ca' }, env()))).toEqual([
      ['a', null, 'message'],
      ['c', 'a', 'message'],
    ]);
    expect(shape(planFork(s, { kind: 'clone', profile: 'ca', leafId: 'b' }, env()))).toEqual([
      ['a', null, 'message'],
      ['b', 'a', 'message'],
      ['n0', 'b', 'label'],
    ]);
  });

  it('env.cwd overrides the header cwd (pi resolves it with path.resolve)', () => {
    const s = session([user('a', null)], header({ cwd: 'rel/dir/' }));
    expect(ok(planFork(s, fork('a', 'at'), env())).header.cwd).toBe('rel/dir/');
    expect(ok(planFork(s, fork('a', 'at'), { ...env(), cwd: '/abs/rel/dir' })).header.cwd).toBe('/abs/rel/dir');
  });

  it('refuses a cyclic path instead of hanging', () => {
    const p = planFork(session([user('a', 'b'), assistant('b', 'a')]), fork('b', 'at'), env());
    expect(p).toMatchObject({ ok: false, error: { kind: 'invalid_session' } });
  });

  it('refuses sessions that did not parse', () => {
    const p = planFork(session([], { kind: 'header', version: 4, id: 'x' }), fork('a', 'at'), env());
    expect(p).toEqual({ ok: false, error: { kind: 'invalid_session', message: 'format 4 is not supported yet' } });
  });
});

describe('H3 fork (getEntriesToFork, 0.82.1)', () => {
  it('copies the checkpoint-truncated path verbatim, header copies source metadata', () => {
    const entries = [
      user('a', null),
      assistant('b', 'a'),
      user('c', 'b'),
      compaction('k', 'c', 'b'),
      user('d', 'k'),
      assistant('e', 'd'),
    ];
    const s = session(entries, header({ metadata: { app: 'x' } }));
    const p = ok(planFork(s, fork('d', 'at', 'h3'), env()));
    expect(p.entries).toEqual([entries[1], entries[2], entries[3], entries[4]]);
    expect(p.entries[0]).toBe(s.entries[1]!.raw);
    expect(p.header).toEqual({
      type: 'session',
      version: 3,
      id: 'new-id',
      timestamp: '2026-02-02T00:00:00.000Z',
      cwd: '/home/alice/proj',
      parentSession: '/s/src.jsonl',
      metadata: { app: 'x' },
    });
    expect(p.leafId).toBe('d');
  });

  it('no metadata key when the source has none', () => {
    const p = ok(planFork(session([user('a', null)]), fork('a', 'at', 'h3'), env()));
    expect('metadata' in p.header).toBe(false);
  });

  it('"at" a retainedTail compaction copies just the compaction', () => {
    const s = session([user('a', null), compaction('k', 'a', 'a', { retainedTail: [] }), user('d', 'k')]);
    expect(shape(planFork(s, fork('k', 'at', 'h3'), env()))).toEqual([['k', 'a', 'compaction']]);
  });

  it('labels and leaf entries on the path are copied as they are; labels elsewhere are lost', () => {
    const s = session([
      user('a', null),
      label('l', 'a', 'a', 'x'),
      assistant('b', 'l'),
      label('l2', 'b', 'b', 'y'),
      leaf('f', 'l2', 'a'),
      user('c', 'a'),
    ]);
    expect(shape(planFork(s, fork('b', 'at', 'h3'), env()))).toEqual([
      ['a', null, 'message'],
      ['l', 'a', 'label'],
      ['b', 'l', 'message'],
    ]);
  });

  it('clone without a leaf id copies every entry in file order, leaf from the last line', () => {
    const s = session([user('a', null), assistant('b', 'a'), leaf('f', 'b', 'a'), user('c', 'a'), leaf('g', 'c', 'b')]);
    const p = ok(planFork(s, { kind: 'clone', profile: 'h3' }, env()));
    expect(p.entries.map((e) => e.id)).toEqual(['a', 'b', 'f', 'c', 'g']);
    expect(p.leafId).toBe('b');
    const empty = ok(planFork(s, fork('', 'before', 'h3'), env()));
    expect(empty.entries).toHaveLength(5);
  });

  it('clone with a leaf id forks "at" it', () => {
    const s = session([user('a', null), assistant('b', 'a'), user('c', 'a')]);
    expect(shape(planFork(s, { kind: 'clone', profile: 'h3', leafId: 'b' }, env())).map((r) => r[0])).toEqual([
      'a',
      'b',
    ]);
  });

  it('"before" the root user message gives an empty fork', () => {
    const p = ok(planFork(session([user('a', null)]), fork('a', 'before', 'h3'), env()));
    expect(p.entries).toEqual([]);
    expect(p.leafId).toBeNull();
  });

  const refusals: [string, Rec[], ForkRequest, string, string][] = [
    ['unknown entry', [user('a', null)], fork('zz', 'at', 'h3'), 'invalid_fork_target', 'Entry zz not found'],
    [
      'before on a non-user entry',
      [user('a', null), assistant('b', 'a')],
      fork('b', 'before', 'h3'),
      'invalid_fork_target',
      'Entry b is not a user message',
    ],
    [
      'before on a root user message with parentId ""',
      [user('a', '')],
      fork('a', 'before', 'h3'),
      'not_found',
      'Entry  not found',
    ],
    [
      'missing parent on the walk',
      [user('a', 'ghost'), assistant('b', 'a')],
      fork('b', 'at', 'h3'),
      'invalid_session',
      'Entry ghost not found',
    ],
  ];
  it.each(refusals)('refuses: %s', (_name, entries, req, kind, message) => {
    expect(planFork(session(entries), req, env())).toEqual({ ok: false, error: { kind, message } });
  });
});
