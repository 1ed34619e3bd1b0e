import { describe, expect, it } from 'vitest';
import { buildTreeIndex } from '../../../renderer/src/model/tree-index';
import { treeRows } from '../../../renderer/src/features/tree-list/tree-rows';
import { chain, lines, node } from '../helpers';

// u1 → a1 → (x1 → x2 | a2 → u3 [leaf]): the leaf's branch a2 is listed before the older x1.
const entries = lines([
  node('u1', null),
  node('a1', 'u1'),
  node('x1', 'a1'),
  node('x2', 'x1'),
  node('a2', 'a1'),
  node('u3', 'a2'),
]);
const index = buildTreeIndex(entries, 'u3');
const ids = (rows: ReturnType<typeof treeRows>) => rows.map((r) => index.ids[r.i]);

describe('treeRows', () => {
  it("lists the active branch first and indents only where a branch starts, as pi's /tree does", () => {
    const rows = treeRows(index, new Set());
    expect(ids(rows)).toEqual(['u1', 'a1', 'a2', 'u3', 'x1', 'x2']);
    expect(rows.map((r) => r.depth)).toEqual([0, 0, 1, 1, 1, 1]);
    expect(rows.map((r) => r.branchPoint)).toEqual([false, true, false, false, false, false]);
  });

  it('a folded branch point hides its subtree and counts it', () => {
    const rows = treeRows(index, new Set(['a1']));
    expect(ids(rows)).toEqual(['u1', 'a1']);
    expect(rows[1]).toMatchObject({ folded: true, hidden: 4 });
    // Folding a non-branch point does nothing.
    expect(ids(treeRows(index, new Set(['u1'])))).toHaveLength(6);
  });

  it('lists a 100k-entry chain without recursion', () => {
    const big = buildTreeIndex(chain(100_000), 'e99999');
    const rows = treeRows(big, new Set());
    expect(rows).toHaveLength(100_000);
    expect(rows.every((r) => r.depth === 0)).toBe(true);
  });
});
