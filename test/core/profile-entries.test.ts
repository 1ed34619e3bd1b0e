/**
 * Per-profile entry views: pi's CA reader (pi-coding-agent 1.6.0 loadEntriesFromFile/_buildIndex)
 * keeps every object line with an id, even one that fails H3's envelope check; pi's H3 reader
 * (pi-agent-core 0.82.1 JsonlSessionStorage.open) refuses the whole file over such a line, and
 * Canopy's tolerant H3 reading leaves just that line out. planFork refuses whatever pi cannot open.
 */
import { describe, expect, it } from 'vitest';
import {
  buildTree,
  detectProfile,
  entriesFor,
  indexById,
  openProblem,
  parseSessionText,
  planFork,
  readSession,
  type ForkEnv,
  type ForkPlan,
  type IssueKind,
  type ParsedSession,
  type Profile,
} from '../../electron/core';
import { assistant, entry, header, jsonl, label, session, ts, user } from './helpers';

type Rec = Record<string, unknown>;

function env(): ForkEnv {
  let n = 0;
  return {
    sourcePath: '/s/src.jsonl',
    newSessionId: 'new-id',
    now: '2026-02-02T00:00:00.000Z',
    newEntryId: () => `n${n++}`,
  };
}
const clone = (profile: Profile) => ({ kind: 'clone' as const, profile });
const ok = (p: ForkPlan) => {
  if (!p.ok) throw new Error(`expected a plan, got ${JSON.stringify(p.error)}`);
  return p;
};
const without = (o: Rec, key: string): Rec => {
  const out = { ...o };
  delete out[key];
  return out;
};

describe('CA keeps entries that fail the H3 envelope check (bug 1)', () => {
  it("the brief's repro: an assistant message without timestamp stays on the CA path", () => {
    const text = jsonl([
      { type: 'session', version: 3, id: 's1', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/x' },
      {
        type: 'message',
        id: 'a',
        parentId: null,
        timestamp: '2026-01-01T00:00:01.000Z',
        message: { role: 'user', content: 'hi', timestamp: 1 },
      },
      {
        type: 'message',
        id: 'b',
        parentId: 'a',
        message: { role: 'assistant', content: [], provider: 'p', model: 'm', timestamp: 2 },
      },
      {
        type: 'message',
        id: 'c',
        parentId: 'b',
        timestamp: '2026-01-01T00:00:03.000Z',
        message: { role: 'user', content: 'again', timestamp: 3 },
      },
    ]);
    const s = parseSessionText(text);
    const ca = readSession(s, { profile: 'ca' });
    expect(ca.pathIds).toEqual(['a', 'b', 'c']);
    expect((ca.context as { model: unknown }).model).toEqual({ provider: 'p', modelId: 'm' });
    expect(ca.issues.map((i) => [i.line, i.kind])).toEqual([[3, 'missing_timestamp']]);
    // H3 leaves the line out: its child loses its parent.
    const h3 = readSession(s, { profile: 'h3' });
    expect(h3.pathIds).toEqual(['c']);
    expect(h3.issues.map((i) => i.kind)).toContain('dangling_parent');
  });

  // Entry "b" of the chain a ← b ← c is replaced by `bad`; expected paths follow pi's CA walk
  // (`current.parentId ? byId.get(current.parentId) : undefined`).
  const cases: Array<[string, Rec, IssueKind, string[]]> = [
    ['timestamp missing', without(assistant('b', 'a'), 'timestamp'), 'missing_timestamp', ['a', 'b', 'c']],
    ['timestamp a number', { ...assistant('b', 'a'), timestamp: 1767225600000 }, 'missing_timestamp', ['a', 'b', 'c']],
    ['timestamp empty', { ...assistant('b', 'a'), timestamp: '' }, 'missing_timestamp', ['a', 'b', 'c']],
    ['type missing', without(assistant('b', 'a'), 'type'), 'missing_type', ['a', 'b', 'c']],
    ['type a number', { ...assistant('b', 'a'), type: 3 }, 'missing_type', ['a', 'b', 'c']],
    ['parentId missing (a root)', without(assistant('b', 'a'), 'parentId'), 'invalid_parent_id', ['b', 'c']],
    ['parentId 0 (a root)', { ...assistant('b', 'a'), parentId: 0 }, 'invalid_parent_id', ['b', 'c']],
    ['parentId a number (an orphan)', { ...assistant('b', 'a'), parentId: 7 }, 'invalid_parent_id', ['b', 'c']],
    ['leaf with a numeric targetId', entry('leaf', 'b', 'a', { targetId: 5 }), 'invalid_target_id', ['a', 'b', 'c']],
    ['leaf without targetId', entry('leaf', 'b', 'a'), 'invalid_target_id', ['a', 'b', 'c']],
  ];
  it.each(cases)('%s', (_name, bad, kind, caPath) => {
    const s = session([user('a', null), bad, user('c', 'b')]);
    expect(s.issues.map((i) => [i.line, i.kind])).toEqual([[3, kind]]);
    expect(s.entries.map((e) => e.id)).toEqual(['a', 'b', 'c']);
    expect(s.entries[1]!.strictInvalid).toBe(kind);
    expect(s.entries[1]!.raw).toEqual(bad);
    expect(entriesFor(s, 'ca')).toBe(s.entries);
    expect(entriesFor(s, 'h3').map((e) => e.id)).toEqual(['a', 'c']);
    expect(indexById(s, 'ca').has('b')).toBe(true);
    expect(indexById(s, 'h3').has('b')).toBe(false);

    const ca = readSession(s, { profile: 'ca' });
    expect(ca.leafId).toBe('c');
    expect(ca.pathIds).toEqual(caPath);
    expect(ca.contextEntryIds).toEqual(caPath);
    // pi reports nothing for CA's orphans; the envelope issue is the one report.
    expect(ca.issues.map((i) => i.kind)).toEqual([kind]);

    const h3 = readSession(s, { profile: 'h3' });
    expect(h3.leafId).toBe('c');
    expect(h3.pathIds).toEqual(['c']);
  });

  it('entries without a usable id are still dropped (documented divergence)', () => {
    const s = session([
      user('a', null),
      without(assistant('b', 'a'), 'id'),
      { ...assistant('x', 'a'), id: '' },
      { ...assistant('y', 'a'), id: 9 },
      user('c', 'a'),
    ]);
    expect(s.entries.map((e) => e.id)).toEqual(['a', 'c']);
    expect(s.issues.map((i) => i.kind)).toEqual(['missing_id', 'missing_id', 'missing_id']);
  });

  it('a strict-invalid line that reuses an id wins in the CA index only', () => {
    const dup = { ...without(assistant('b', null), 'timestamp') };
    const s = session([user('a', null), assistant('b', 'a'), dup, user('c', 'b')]);
    expect(indexById(s, 'ca').get('b')!.line).toBe(4);
    expect(indexById(s, 'h3').get('b')!.line).toBe(3);
    expect(readSession(s, { profile: 'ca' }).pathIds).toEqual(['b', 'c']);
    expect(readSession(s, { profile: 'h3' }).pathIds).toEqual(['a', 'b', 'c']);
  });

  it('a strict-invalid last line is the CA leaf but never moves the H3 leaf', () => {
    const s = session([user('a', null), assistant('b', 'a'), without(user('c', 'b'), 'timestamp')]);
    expect(readSession(s, { profile: 'ca' }).leafId).toBe('c');
    expect(readSession(s, { profile: 'h3' }).leafId).toBe('b');
  });

  it('labels and the session name: CA counts strict-invalid entries, H3 does not', () => {
    const s = session([
      user('a', null),
      without(label('l', 'a', 'a', 'kept by CA'), 'timestamp'),
      without(entry('session_info', 'n', 'l', { name: 'CA name' }), 'timestamp'),
    ]);
    const ca = readSession(s, { profile: 'ca' });
    expect(ca.labels).toEqual({ a: 'kept by CA' });
    expect(ca.sessionName).toBe('CA name');
    const h3 = readSession(s, { profile: 'h3' });
    expect(h3.labels).toEqual({});
    expect(h3.sessionName).toBeUndefined();
  });

  it('the tree sorts siblings by the timestamp as written (pi: new Date(value))', () => {
    const later = user('x', 'a', 'later', { timestamp: ts(100) });
    const earlier = { ...user('y', 'a', 'earlier'), timestamp: Date.parse(ts(50)) };
    const s = session([user('a', null, 'root', { timestamp: ts(1) }), later, earlier]);
    expect(buildTree(s).children.get('a')).toEqual(['y', 'x']);
  });

  it('a leaf entry with a bad targetId is no sign that H3 wrote the file', () => {
    const s = session([user('a', null), entry('leaf', 'b', 'a', { targetId: 5 })]);
    expect(detectProfile(s)).toBe('ca');
  });
});

describe('CA fork of strict-invalid entries', () => {
  const env0 = env;
  it('copies the line as written (no type key added) and re-chains it', () => {
    const noType = without(assistant('b', 'a'), 'type');
    const s = session([user('a', null), noType, user('c', 'b')]);
    const p = ok(planFork(s, { kind: 'fork', profile: 'ca', entryId: 'c', position: 'at' }, env0()));
    expect(p.entries.map((e) => e.id)).toEqual(['a', 'b', 'c']);
    expect(p.entries[1]).toEqual({ ...noType, parentId: 'a' });
    expect('type' in p.entries[1]!).toBe(false);
  });

  it('re-creates a label with the timestamp as written (missing stays missing)', () => {
    const s = session([
      user('a', null),
      assistant('b', 'a'),
      without(label('l', 'b', 'a', 'mark'), 'timestamp'),
      user('c', 'l'),
    ]);
    const p = ok(planFork(s, { kind: 'fork', profile: 'ca', entryId: 'c', position: 'at' }, env0()));
    const written = JSON.parse(JSON.stringify(p.entries)) as Rec[];
    expect(written.at(-1)).toEqual({ type: 'label', id: 'n0', parentId: 'c', targetId: 'a', label: 'mark' });
  });

  // pi's runtime: target = selected.parentId; a falsy target starts an empty session, a truthy one
  // is looked up by createBranchedSession and throws "Entry <target> not found".
  const before: Array<[string, unknown, 'empty' | string]> = [
    ['parentId missing', undefined, 'empty'],
    ['parentId 0', 0, 'empty'],
    ['parentId false', false, 'empty'],
    ['parentId 7', 7, 'Entry 7 not found'],
    ['parentId true', true, 'Entry true not found'],
  ];
  it.each(before)('"before" a user message with %s', (_name, parentId, expected) => {
    const prompt: Rec = { ...user('c', 'b') };
    if (parentId === undefined) delete prompt.parentId;
    else prompt.parentId = parentId;
    const s = session([user('a', null), assistant('b', 'a'), prompt]);
    const p = planFork(s, { kind: 'fork', profile: 'ca', entryId: 'c', position: 'before' }, env0());
    if (expected === 'empty') {
      expect(ok(p).entries).toEqual([]);
    } else {
      expect(p).toEqual({ ok: false, error: { kind: 'not_found', message: expected } });
    }
  });
});

describe('planFork refuses files pi cannot open (bugs 2 and 3)', () => {
  const v3 = JSON.stringify(header());
  const a = JSON.stringify(user('a', null));
  const b = JSON.stringify(assistant('b', 'a'));
  const c = JSON.stringify(user('c', 'b'));
  const withEntry = (o: Rec) => JSON.stringify(o);

  // [name, file text, line of the first problem H3 meets, whether CA opens the file]
  const files: Array<[string, string, number, boolean]> = [
    ['v1 header (no version)', [JSON.stringify(without(header(), 'version')), a, b].join('\n') + '\n', 1, true],
    ['v2 header', [JSON.stringify(header({ version: 2 })), a, b].join('\n') + '\n', 1, true],
    [
      'v2 header and a bad line: the header comes first',
      [JSON.stringify(header({ version: 2 })), a, '{oops', b].join('\n') + '\n',
      1,
      true,
    ],
    ['version "3" (a string)', [JSON.stringify(header({ version: '3' })), a].join('\n') + '\n', 1, true],
    ['header without cwd', [JSON.stringify(without(header(), 'cwd')), a].join('\n') + '\n', 1, true],
    ['header without timestamp', [JSON.stringify(without(header(), 'timestamp')), a].join('\n') + '\n', 1, true],
    ['header metadata null', [JSON.stringify(header({ metadata: null })), a].join('\n') + '\n', 1, true],
    ['byte order mark', ['\uFEFF' + v3, a, b].join('\n') + '\n', 1, false],
    ['junk before the header', ['### not json', v3, a, b].join('\n') + '\n', 1, true],
    ['null before the header', ['null', v3, a].join('\n') + '\n', 1, true],
    ['a line that is not JSON', [v3, a, 'this is not json {', b].join('\n') + '\n', 3, true],
    ['a bad line after blank lines (physical line)', [v3, '', a, '   ', 'nope', b].join('\n') + '\n', 5, true],
    ['a torn last line', [v3, a, b, c.slice(0, 20)].join('\n'), 4, true],
    ['a null line', [v3, a, 'null', b].join('\n') + '\n', 3, true],
    ['a number line', [v3, a, '42', b].join('\n') + '\n', 3, true],
    ['an array line', [v3, a, '[1,2]', b].join('\n') + '\n', 3, true],
    ['entry without id', [v3, a, withEntry(without(assistant('b', 'a'), 'id'))].join('\n') + '\n', 3, true],
    [
      'entry without timestamp',
      [v3, a, withEntry(without(assistant('b', 'a'), 'timestamp'))].join('\n') + '\n',
      3,
      true,
    ],
    ['entry without type', [v3, a, withEntry(without(assistant('b', 'a'), 'type'))].join('\n') + '\n', 3, true],
    [
      'entry with a numeric parentId',
      [v3, a, withEntry({ ...assistant('b', 'a'), parentId: 7 })].join('\n') + '\n',
      3,
      true,
    ],
    ['entry without parentId', [v3, a, withEntry(without(assistant('b', 'a'), 'parentId'))].join('\n') + '\n', 3, true],
    [
      'leaf entry with a bad targetId',
      [v3, a, withEntry(entry('leaf', 'l', 'a', { targetId: 5 }))].join('\n') + '\n',
      3,
      true,
    ],
  ];
  it.each(files)('%s', (_name, text, line, caOpens) => {
    const s = parseSessionText(text);
    expect(s.fatal).toBeUndefined();
    const h3 = planFork(s, clone('h3'), env());
    expect(h3.ok).toBe(false);
    if (!h3.ok) {
      expect(h3.error.kind).toBe('invalid_session');
      expect(h3.error.message).toContain(`line ${line}:`);
    }
    expect(openProblem(s, 'h3')?.line).toBe(line);
    // Every fork request is refused, not only clones.
    const target = s.entries[0]?.id;
    if (target)
      expect(planFork(s, { kind: 'fork', profile: 'h3', entryId: target, position: 'at' }, env()).ok).toBe(false);

    const ca = planFork(s, clone('ca'), env());
    expect(ca.ok).toBe(caOpens);
    if (!ca.ok) expect(ca.error.kind).toBe('invalid_session');
    expect(openProblem(s, 'ca') === null).toBe(caOpens);
  });

  // [name, file text]: files both of pi's readers open; neither profile refuses them.
  const fine: Array<[string, string]> = [
    ['a plain v3 file', [v3, a, b, c].join('\n') + '\n'],
    ['no final newline (complete JSON)', [v3, a, b, c].join('\n')],
    ['blank lines and CRLF', [v3, '', a, b, c].join('\r\n') + '\r\n'],
    ['duplicate ids', [v3, a, b, withEntry(assistant('b', 'a')), c].join('\n') + '\n'],
    ['a dangling parent off the forked path', [v3, a, b, withEntry(user('x', 'missing'))].join('\n') + '\n'],
    [
      'a second header with a valid envelope',
      [v3, a, withEntry({ type: 'session', id: 'h2', parentId: null, timestamp: ts(9), cwd: '/x' }), b].join('\n') +
        '\n',
    ],
  ];
  it.each(fine)('%s: both profiles fork', (_name, text) => {
    const s: ParsedSession = parseSessionText(text);
    expect(openProblem(s, 'h3')).toBeNull();
    expect(openProblem(s, 'ca')).toBeNull();
    expect(planFork(s, { kind: 'fork', profile: 'h3', entryId: 'b', position: 'at' }, env()).ok).toBe(true);
    expect(planFork(s, { kind: 'fork', profile: 'ca', entryId: 'b', position: 'at' }, env()).ok).toBe(true);
  });

  it('a byte order mark on a junk line before the header: CA opens the file (pi skips the line), H3 does not', () => {
    const s = parseSessionText(['\uFEFF### junk', v3, a, b].join('\n') + '\n');
    expect(s.headerLine).toBe(2);
    expect(planFork(s, clone('ca'), env()).ok).toBe(true);
    expect(planFork(s, clone('h3'), env()).ok).toBe(false);
  });
});
