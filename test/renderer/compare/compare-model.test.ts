/** The compare feature's model: branch tips, the picker's leaves, stepping through divergent rows, swapping. */
import { describe, expect, it } from 'vitest';
import {
  branchTips,
  candidatesOf,
  stepDivergence,
  swapped,
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
