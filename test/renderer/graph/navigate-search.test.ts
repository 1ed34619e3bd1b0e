import { describe, expect, it } from 'vitest';
import { collapseChains } from '../../../renderer/src/features/graph/model/collapse';
import { filterTree } from '../../../renderer/src/model/filters';
import { navigate } from '../../../renderer/src/features/graph/model/navigate';
import { searchEntries } from '../../../renderer/src/features/graph/model/search';
import { buildTreeIndex } from '../../../renderer/src/model/tree-index';
import { lines, node } from '../helpers';

//      r
//    / | \
//   a  b  c       (leaf under a)
//   |
//   a1
const entries = lines([
  node('r', null, { preview: 'Root question' }),
  node('a', 'r', { preview: 'first answer' }),
  node('b', 'r', { preview: 'second ANSWER here' }),
  node('c', 'r', { preview: 'third', toolNames: ['grep'] }),
  node('a1', 'a', { preview: 'deeper' }),
]);
const index = buildTreeIndex(entries, 'a1');
const tree = collapseChains(filterTree(index, { mode: 'all', showLeafRecords: false, leafId: 'a1', labels: {} }), {
  keep: () => false,
  expanded: new Set(),
  minRun: 4,
  page: 100,
  budget: 1000,
});

describe('navigate', () => {
  it('moves up to the parent, down to the first child, sideways among siblings', () => {
    expect(navigate(tree, 'a1', 'ArrowUp')).toBe('a');
    expect(navigate(tree, 'a', 'ArrowUp')).toBe('r');
    expect(navigate(tree, 'r', 'ArrowDown')).toBe('a');
    expect(navigate(tree, 'a', 'ArrowRight')).toBe('b');
    expect(navigate(tree, 'b', 'ArrowRight')).toBe('c');
    expect(navigate(tree, 'b', 'ArrowLeft')).toBe('a');
  });

  it('stays put at the edges and starts at the first root without a cursor', () => {
    expect(navigate(tree, 'r', 'ArrowUp')).toBe('r');
    expect(navigate(tree, 'c', 'ArrowRight')).toBe('c');
    expect(navigate(tree, 'a', 'ArrowLeft')).toBe('a');
    expect(navigate(tree, 'a1', 'ArrowDown')).toBe('a1');
    expect(navigate(tree, null, 'ArrowDown')).toBe('r');
    expect(navigate(tree, 'gone', 'ArrowUp')).toBe('r');
  });
});

describe('searchEntries', () => {
  it('matches every token case-insensitively in preview, id or tool names, in display order', () => {
    expect(searchEntries(index, 'answer')).toEqual(['a', 'b']);
    expect(searchEntries(index, 'ANSWER second')).toEqual(['b']);
    expect(searchEntries(index, 'a1')).toEqual(['a1']);
    expect(searchEntries(index, 'grep')).toEqual(['c']);
    expect(searchEntries(index, '   ')).toEqual([]);
    expect(searchEntries(index, 'nothing-like-this')).toEqual([]);
  });
});
