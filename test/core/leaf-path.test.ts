import { describe, expect, it } from 'vitest';
import { readSession, type Profile } from '../../electron/core';
import { assistant, compaction, entry, indexedSession, label, leaf, session, user } from './helpers';

const kindsOf = (issues: { kind: string }[]) => issues.map((i) => i.kind);

/** The path and walk issues at `leafId`, parsed and indexed as the app opens files (walks over the parent table). */
function expectPath(
  entries: Record<string, unknown>[],
  profile: Profile,
  leafId: string | null | undefined,
  path: string[],
  issues: string[],
): void {
  for (const s of [session(entries), indexedSession(entries)]) {
    const r = readSession(s, { profile, leafId });
    expect(r.pathIds).toEqual(path);
    expect(kindsOf(r.issues)).toEqual(issues);
  }
}

describe('current leaf', () => {
  const cases: [string, Record<string, unknown>[], string | null, string | null][] = [
    // name, entries, CA leaf, H3 leaf
    ['empty body', [], null, null],
    ['last message', [user('a', null), assistant('b', 'a')], 'b', 'b'],
    ['a trailing label is the leaf', [user('a', null), label('l', 'a', 'a', 'x')], 'l', 'l'],
    [
      'a trailing session_info is the leaf',
      [user('a', null), entry('session_info', 'n', 'a', { name: 'x' })],
      'n',
      'n',
    ],
    [
      'leaf entry: CA takes its id, H3 its target',
      [user('a', null), assistant('b', 'a'), leaf('f', 'b', 'a')],
      'f',
      'a',
    ],
    ['leaf entry with null target', [user('a', null), leaf('f', 'a', null)], 'f', null],
    ['only the last line counts in H3', [user('a', null), leaf('f', 'a', null), user('c', null)], 'c', 'c'],
    ['last line is not the deepest entry', [user('a', null), assistant('b', 'a'), user('c', 'a')], 'c', 'c'],
  ];
  it.each(cases)('%s', (_name, entries, caLeaf, h3Leaf) => {
    const s = session(entries);
    expect(readSession(s, { profile: 'ca' }).leafId).toBe(caLeaf);
    expect(readSession(s, { profile: 'h3' }).leafId).toBe(h3Leaf);
  });

  it('H3: a leaf entry naming a missing id is reported and gives an empty path', () => {
    const s = session([user('a', null), leaf('f', 'a', 'ghost')]);
    const r = readSession(s, { profile: 'h3' });
    expect(r.leafId).toBe('ghost');
    expect(r.pathIds).toEqual([]);
    expect(r.issues).toEqual([expect.objectContaining({ kind: 'missing_leaf_target', line: 3 })]);
    expect(r.context).toEqual({ thinkingLevel: 'off', model: null, activeToolNames: null, messages: [] });
  });

  it('uses the later line of a duplicate id for the path', () => {
    const s = session([user('a', null), assistant('b', 'a'), user('x', null), assistant('b', 'x')]);
    expect(readSession(s, { profile: 'ca' }).pathIds).toEqual(['x', 'b']);
    expect(readSession(s, { profile: 'ca', leafId: 'b' }).pathIds).toEqual(['x', 'b']);
  });
});

describe('path: CA (full walk)', () => {
  it('walks every ancestor through compactions', () => {
    const s = session([
      user('a', null),
      assistant('b', 'a'),
      compaction('c', 'b', 'b', { retainedTail: [] }),
      user('d', 'c'),
    ]);
    expect(readSession(s, { profile: 'ca' }).pathIds).toEqual(['a', 'b', 'c', 'd']);
  });

  const table: [string, Record<string, unknown>[], string | null | undefined, string[], string[]][] = [
    [
      'explicit leaf in a side branch',
      [user('a', null), assistant('b', 'a'), assistant('c', 'a')],
      'b',
      ['a', 'b'],
      [],
    ],
    ['null leaf = before the first entry', [user('a', null)], null, [], []],
    ['"" parent acts as root', [user('a', null), assistant('b', '')], 'b', ['b'], []],
    [
      'missing parent: orphan starts the path',
      [user('a', null), assistant('b', 'ghost'), user('c', 'b')],
      'c',
      ['b', 'c'],
      ['dangling_parent'],
    ],
    [
      'unknown leaf falls back to the last entry',
      [user('a', null), assistant('b', 'a')],
      'nope',
      ['a', 'b'],
      ['unknown_leaf'],
    ],
    [
      'empty-string leaf falls back to the last entry',
      [user('a', null), assistant('b', 'a')],
      '',
      ['a', 'b'],
      ['unknown_leaf'],
    ],
    ['self-parent cycle stops', [user('a', 'a')], undefined, ['a'], ['cycle']],
    ['two-entry cycle stops', [user('a', 'b'), assistant('b', 'a')], undefined, ['a', 'b'], ['cycle']],
  ];
  it.each(table)('%s', (_name, entries, leafId, path, issues) => expectPath(entries, 'ca', leafId, path, issues));
});

describe('path: H3 (checkpoints, §8.2)', () => {
  const table: [string, Record<string, unknown>[], string | null | undefined, string[], string[]][] = [
    [
      'no compaction: to the root',
      [user('a', null), assistant('b', 'a'), user('c', 'b')],
      undefined,
      ['a', 'b', 'c'],
      [],
    ],
    [
      'retainedTail [] stops at the compaction',
      [user('a', null), assistant('b', 'a'), compaction('k', 'b', 'a', { retainedTail: [] }), user('d', 'k')],
      undefined,
      ['k', 'd'],
      [],
    ],
    [
      'non-empty retainedTail stops at the compaction',
      [
        user('a', null),
        compaction('k', 'a', undefined, { retainedTail: [{ role: 'user', content: 'x' }] }),
        user('d', 'k'),
      ],
      undefined,
      ['k', 'd'],
      [],
    ],
    [
      'retainedTail null does not stop',
      [user('a', null), assistant('b', 'a'), compaction('k', 'b', 'b', { retainedTail: null }), user('d', 'k')],
      undefined,
      ['b', 'k', 'd'],
      [],
    ],
    [
      'firstKeptEntryId: stop once it is added',
      [user('a', null), assistant('b', 'a'), user('c', 'b'), compaction('k', 'c', 'b'), user('d', 'k')],
      undefined,
      ['b', 'c', 'k', 'd'],
      [],
    ],
    [
      'firstKeptEntryId not an ancestor: walk to the root',
      [user('a', null), assistant('b', 'a'), user('x', 'a'), compaction('k', 'b', 'x'), user('d', 'k')],
      undefined,
      ['a', 'b', 'k', 'd'],
      [],
    ],
    [
      'compaction without firstKept: walk on',
      [user('a', null), assistant('b', 'a'), compaction('k', 'b', undefined), user('d', 'k')],
      undefined,
      ['a', 'b', 'k', 'd'],
      [],
    ],
    [
      'older compaction before stopAt overwrites it',
      [
        user('a', null),
        assistant('b', 'a'),
        user('c', 'b'),
        compaction('k1', 'c', 'b'),
        user('d', 'k1'),
        compaction('k2', 'd', 'a'),
        user('e', 'k2'),
      ],
      undefined,
      ['b', 'c', 'k1', 'd', 'k2', 'e'],
      [],
    ],
    [
      'older compaction without firstKept clears stopAt',
      [
        user('a', null),
        assistant('b', 'a'),
        compaction('k1', 'b', undefined),
        user('d', 'k1'),
        compaction('k2', 'd', 'a'),
        user('e', 'k2'),
      ],
      undefined,
      ['a', 'b', 'k1', 'd', 'k2', 'e'],
      [],
    ],
    [
      'retainedTail compaction reached before stopAt',
      [
        user('a', null),
        compaction('k1', 'a', undefined, { retainedTail: [] }),
        user('d', 'k1'),
        compaction('k2', 'd', 'a'),
        user('e', 'k2'),
      ],
      undefined,
      ['k1', 'd', 'k2', 'e'],
      [],
    ],
    [
      'retainedTail compaction with a missing parent is fine',
      [compaction('k', 'gone', undefined, { retainedTail: [] }), user('d', 'k')],
      undefined,
      ['k', 'd'],
      [],
    ],
    [
      'first kept entry whose parent is missing is fine',
      [user('b', 'gone'), compaction('k', 'b', 'b'), user('d', 'k')],
      undefined,
      ['b', 'k', 'd'],
      [],
    ],
    ['missing parent is reported', [user('b', 'gone'), user('d', 'b')], undefined, ['b', 'd'], ['dangling_parent']],
    [
      'leaf at the compaction itself',
      [user('a', null), assistant('b', 'a'), compaction('k', 'b', 'b')],
      'k',
      ['b', 'k'],
      [],
    ],
    ['null leaf', [user('a', null)], null, [], []],
    ['unknown explicit leaf: empty path', [user('a', null)], 'nope', [], ['unknown_leaf']],
    ['cycle stops', [user('a', 'b'), assistant('b', 'a')], 'b', ['a', 'b'], ['cycle']],
    // The first kept entry was already walked when the compaction names it: the walk goes on.
    [
      'a cycle above a checkpoint whose first kept entry is below it',
      [user('a', 'b'), assistant('b', 'a'), compaction('k', 'a', 'x'), user('x', 'k')],
      'x',
      ['b', 'a', 'k', 'x'],
      ['cycle'],
    ],
  ];
  it.each(table)('%s', (_name, entries, leafId, path, issues) => expectPath(entries, 'h3', leafId, path, issues));

  it('the leaf of a leaf entry is followed through the tree', () => {
    const s = session([user('a', null), assistant('b', 'a'), user('c', 'b'), leaf('f', 'c', 'b')]);
    expect(readSession(s, { profile: 'h3' }).pathIds).toEqual(['a', 'b']);
    expect(readSession(s, { profile: 'ca' }).pathIds).toEqual(['a', 'b', 'c', 'f']);
  });
});

describe('labels and session name', () => {
  const labelTable: [string, Record<string, unknown>[], Record<string, string>, Record<string, string>][] = [
    ['set', [user('a', null), label('l1', 'a', 'a', 'start')], { a: 'start' }, { a: 'start' }],
    [
      'later overwrites',
      [user('a', null), label('l1', 'a', 'a', 'x'), label('l2', 'l1', 'a', 'y')],
      { a: 'y' },
      { a: 'y' },
    ],
    ['missing label clears', [user('a', null), label('l1', 'a', 'a', 'x'), label('l2', 'l1', 'a')], {}, {}],
    ['empty label clears', [user('a', null), label('l1', 'a', 'a', 'x'), label('l2', 'l1', 'a', '')], {}, {}],
    [
      'whitespace: CA keeps, H3 clears',
      [user('a', null), label('l1', 'a', 'a', 'x'), label('l2', 'l1', 'a', '   ')],
      { a: '   ' },
      {},
    ],
    ['padding: CA keeps, H3 trims', [user('a', null), label('l1', 'a', 'a', ' x ')], { a: ' x ' }, { a: 'x' }],
    [
      'other branches count (file order)',
      [user('a', null), assistant('b', 'a'), label('l1', 'a', 'b', 'side'), user('c', 'b')],
      { b: 'side' },
      { b: 'side' },
    ],
    ['missing targets are kept', [user('a', null), label('l1', 'a', 'ghost', 'g')], { ghost: 'g' }, { ghost: 'g' }],
    [
      '__proto__ is a plain key',
      [user('a', null), label('l1', 'a', '__proto__', 'p')],
      { ['__proto__']: 'p' },
      { ['__proto__']: 'p' },
    ],
  ];
  it.each(labelTable)('%s', (_name, entries, ca, h3) => {
    const s = session(entries);
    const read = (profile: Profile) => JSON.parse(JSON.stringify(readSession(s, { profile }).labels));
    expect(read('ca')).toEqual(JSON.parse(JSON.stringify(ca)));
    expect(read('h3')).toEqual(JSON.parse(JSON.stringify(h3)));
  });

  const names: [string, Record<string, unknown>[], string | undefined][] = [
    ['none', [user('a', null)], undefined],
    ['trimmed', [user('a', null), entry('session_info', 'n', 'a', { name: '  Refactor  ' })], 'Refactor'],
    [
      'last wins, any branch',
      [
        user('a', null),
        entry('session_info', 'n1', 'a', { name: 'one' }),
        user('b', null),
        entry('session_info', 'n2', null, { name: 'two' }),
      ],
      'two',
    ],
    [
      'empty clears',
      [
        user('a', null),
        entry('session_info', 'n1', 'a', { name: 'one' }),
        entry('session_info', 'n2', 'n1', { name: ' ' }),
      ],
      undefined,
    ],
    [
      'missing name clears',
      [user('a', null), entry('session_info', 'n1', 'a', { name: 'one' }), entry('session_info', 'n2', 'n1')],
      undefined,
    ],
  ];
  it.each(names)('session name: %s', (_name, entries, expected) => {
    const s = session(entries);
    expect(readSession(s, { profile: 'ca' }).sessionName).toBe(expected);
    expect(readSession(s, { profile: 'h3' }).sessionName).toBe(expected);
  });
});
