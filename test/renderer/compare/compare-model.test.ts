/** The compare feature's model: branch tips, the picker's leaves, stepping through divergent rows, swapping. */
import { describe, expect, it } from 'vitest';
import {
  branchTips,
  candidatesOf,
  openingPicks,
  stepDivergence,
  swapped,
  type Candidate,
} from '../../../renderer/src/features/compare/compare-model';
import type { CompareDto, EntryNodeDto, LineageDto } from '../../../renderer/src/lib/shared';

const node = (id: string, parentId: string | null, type = 'message', preview = `text ${id}`): EntryNodeDto => ({
  id,
  parentId,
  type,
  line: 1,
  timestamp: '2026-01-01T00:00:00.000Z',
  preview,
});

// r → a → b ; a → c → label(c) ; leaf record pointing somewhere
const ENTRIES = [
  node('r', null),
  node('a', 'r'),
  node('b', 'a'),
  node('c', 'a'),
  node('l', 'c', 'label'),
  node('z', 'b', 'leaf'),
];

describe('compare model', () => {
  it('branch tips: entries no other entry continues, labels and leaf records aside', () => {
    expect(branchTips(ENTRIES).map((e) => e.id)).toEqual(['b', 'c']);
  });

  it('the picker offers the selected entry, the leaf, the tips and the family, each leaf once', () => {
    const lineage: LineageDto = {
      sessionId: 's1',
      parent: { sessionId: 'p', fileName: 'parent.jsonl', createdAt: '', forkPointEntryId: 'a' },
      missingParentPath: null,
      children: [{ sessionId: 'k', fileName: 'fork.jsonl', createdAt: '', forkPointEntryId: 'b' }],
    };
    const c = candidatesOf('s1', ENTRIES, 'b', 'a', lineage);
    expect(c.map((x) => [x.kind, x.sessionId, x.leafId])).toEqual([
      ['selected', 's1', 'a'],
      ['leaf', 's1', 'b'],
      ['tip', 's1', 'c'],
      ['parent', 'p', undefined],
      ['fork', 'k', undefined],
    ]);
    // Tips and family sessions say what they are when the caller can tell (branch labels).
    const labelled = candidatesOf('s1', ENTRIES, 'b', 'a', lineage, {
      tip: (id) => `tip ${id} label`,
      session: (id) => (id === 'k' ? 'try a trie · after “speed up”' : null),
    });
    expect(labelled.find((x) => x.kind === 'tip')!.detail).toBe('tip c label');
    expect(labelled.find((x) => x.kind === 'fork')!.detail).toBe('try a trie · after “speed up”');
    expect(labelled.find((x) => x.kind === 'parent')!.detail).toMatch(/forked from/);
  });

  const rows = [
    { a: 0, b: 0, samePrompt: true, divergent: false },
    { a: 1, b: null, samePrompt: false, divergent: true },
    { a: 2, b: 1, samePrompt: true, divergent: false },
    { a: null, b: 2, samePrompt: false, divergent: true },
  ];

  it('steps through divergent rows only and stays at the last one', () => {
    expect(stepDivergence(rows, null, 1)).toBe(1);
    expect(stepDivergence(rows, 1, 1)).toBe(3);
    expect(stepDivergence(rows, 3, 1)).toBe(3);
    expect(stepDivergence(rows, 3, -1)).toBe(1);
    expect(stepDivergence(rows, 1, -1)).toBe(1);
    expect(stepDivergence(rows.slice(0, 1), null, 1)).toBeNull();
  });

  it('swapping exchanges the sides and each row’s turns', () => {
    const c = { sides: [{ leafId: 'A' }, { leafId: 'B' }], rows } as unknown as CompareDto;
    const s = swapped(c);
    expect(s.sides.map((x) => x.leafId)).toEqual(['B', 'A']);
    expect(s.rows[1]).toMatchObject({ a: null, b: 1 });
  });
});

describe('the picker as it opens', () => {
  const c = (key: string, kind: Candidate['kind'] = 'tip'): Candidate => ({
    key,
    sessionId: 's1',
    leafId: key,
    kind,
    title: key,
    detail: '',
  });

  it('without an earlier A: A is the selection, B open, the cursor on the next row', () => {
    const p = openingPicks([c('x', 'selected'), c('y', 'leaf')], null);
    expect([p.a?.key, p.b, p.cursor]).toEqual(['x', null, 1]);
  });

  it('an earlier A and another selection: A stays (offered first if it is no tip), B is the selection', () => {
    const p = openingPicks([c('y', 'selected'), c('t')], c('x', 'selected'));
    expect(p.list.map((x) => [x.key, x.kind])).toEqual([
      ['x', 'picked'],
      ['y', 'selected'],
      ['t', 'tip'],
    ]);
    expect([p.a?.key, p.b?.key, p.cursor]).toEqual(['x', 'y', 1]);
    const same = openingPicks([c('x', 'selected'), c('t')], c('x'));
    expect([same.a?.key, same.b]).toEqual(['x', null]);
  });
});
