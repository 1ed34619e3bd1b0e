import { describe, expect, it } from 'vitest';
import { buildTree, listTreeEntries } from '../../electron/core';
import { assistant, entry, indexText, jsonl, header, label, leaf, session, ts, user } from './helpers';

type Rec = Record<string, unknown>;

/**
 * The same lines parsed (entry objects) and indexed (columns): the tree must not tell them apart.
 * The number: entry objects the indexed tree may make (a line with a bad envelope is read whole for its time).
 */
const cases: [string, (Rec | string)[], number?][] = [
  ['roots of every kind', [user('a', null), user('b', ''), user('c', 'c'), user('d', 'ghost'), assistant('e', 'a')]],
  [
    'siblings by time, ties and unparsable times in file order',
    [
      user('a', null),
      { ...assistant('late', 'a'), timestamp: ts(100) },
      { ...assistant('early', 'a'), timestamp: ts(50) },
      { ...assistant('tie1', 'a'), timestamp: ts(70) },
      { ...assistant('odd', 'a'), timestamp: '2026-01-01 00:01:00' },
      { ...assistant('bad', 'a'), timestamp: 'never' },
      { ...assistant('tie2', 'a'), timestamp: ts(70) },
      // A number: H3 refuses the envelope, pi's CA sorts by the time it names.
      { ...assistant('num', 'a'), timestamp: Date.UTC(2026, 0, 1) + 60_000 },
    ],
    1,
  ],
  [
    'duplicate ids: the later line, under its own parent',
    [user('a', null), assistant('b', 'a'), user('x', null), assistant('b', 'x'), user('c', 'b')],
  ],
  [
    'a parent named before it appears, and cycles',
    [user('r', null), user('a', 'c'), assistant('b', 'a'), user('c', 'b'), assistant('d', 'b'), user('p', 'q')],
  ],
  ['self-parent after a duplicate', [user('s', null), user('s', 's'), assistant('t', 's')]],
  [
    'labels, leaves and context edits',
    [
      user('a', null),
      label('l', 'a', 'a', 'x'),
      leaf('f', 'l', null),
      entry('context_edit', 'e', 'f', { targetId: 'a', replacement: null }),
      entry('label', 'n', 'e', { targetId: 7 }),
    ],
  ],
  ['non-ASCII and escaped ids', [user('ü', null), user('a\u0001b', 'ü'), user('q"\\', 'a\u0001b')]],
];

describe('the tree over columns (indexed) and over entry objects (parsed)', () => {
  it.each(cases)('%s', (_name, lines, objects = 0) => {
    const parsed = session(lines);
    const indexer = indexText(jsonl([header(), ...lines]));
    const indexed = indexer.result();
    const created = indexer.stats.entryObjects;
    const tree = buildTree(indexed);
    const list = listTreeEntries(indexed);
    // Columns answer: no entry object is made for the tree or the list.
    expect(indexer.stats.entryObjects).toBe(created + objects);
    expect(tree).toEqual(buildTree(parsed));
    expect(list).toEqual(listTreeEntries(parsed));
  });

  it('sorts siblings by the time written, a number included', () => {
    const lines = [
      user('a', null),
      { ...assistant('late', 'a'), timestamp: ts(100) },
      { ...assistant('tie1', 'a'), timestamp: ts(70) },
      { ...assistant('num', 'a'), timestamp: Date.UTC(2026, 0, 1) + 60_000 },
      { ...assistant('tie2', 'a'), timestamp: ts(70) },
      { ...assistant('early', 'a'), timestamp: ts(50) },
    ];
    const t = buildTree(indexText(jsonl([header(), ...lines])).result());
    expect(t.children.get('a')).toEqual(['early', 'num', 'tie1', 'tie2', 'late']);
  });
});
