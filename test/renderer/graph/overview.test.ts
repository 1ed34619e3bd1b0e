import { describe, expect, it } from 'vitest';
import {
  overviewMarks,
  stripAt,
  stripY,
  tipNear,
  trunkAt,
  viewportSpan,
} from '../../../renderer/src/features/graph/model/overview';
import { buildLodView } from '../../../renderer/src/features/graph/model/lod-view';
import { stepTip, tipPreview } from '../../../renderer/src/features/graph/model/tips';
import { buildGraphView } from '../../../renderer/src/features/graph/model/view';
import { buildTreeIndex } from '../../../renderer/src/model/tree-index';
import type { EntryNodeDto } from '../../../electron/shared/dto';
import { chain, graphOf, lines, node, pathTo } from '../helpers';

/**
 *   r ─ a ─┬─ b ─ c ─ … (20-entry chain k) ─ leaf      (the leaf's branch, first in tree order)
 *          ├─ x1 (tip)
 *          └─ cp (compaction) ─ y1 ─┬─ y2 (tip)
 *                                   └─ t (toolResult tip; its message ancestor is y1)
 */
function sample() {
  const entries: EntryNodeDto[] = lines([
    node('r', null, { preview: 'root question' }),
    node('a', 'r', { role: 'assistant', hasText: true, preview: 'root answer' }),
    node('b', 'a', { preview: 'go on' }),
    ...chain(20, 'k', 'b'),
    node('leaf', 'k19', { role: 'assistant', hasText: true, preview: 'the end' }),
    node('x1', 'a', { preview: 'abandoned idea' }),
    node('cp', 'a', { type: 'compaction', role: undefined, checkpoint: 'retained-tail', preview: 'summary' }),
    node('y1', 'cp', { preview: 'after the summary' }),
    node('y2', 'y1', { role: 'assistant', hasText: true, preview: 'reply two' }),
    node('t', 'y1', { role: 'toolResult', preview: '' }),
  ]);
  const graph = graphOf(entries, { leafId: 'leaf', pathIds: pathTo(entries, 'leaf') });
  const index = buildTreeIndex(graph.entries, 'leaf');
  const view = buildGraphView(graph, index, {
    filterMode: 'all',
    showLeafRecords: false,
    expanded: new Set(),
    selectedId: null,
    collapse: { budget: 0 },
  });
  return { graph, index, view, marks: overviewMarks(view, 'leaf') };
}

describe('overviewMarks', () => {
  it('marks the tips in tree order, the leaf branch first, each ending in its last entry', () => {
    const { marks, view } = sample();
    expect(marks.tips.map((t) => t.entryId)).toEqual(['leaf', 'x1', 'y2', 't']);
    expect(marks.tips.map((t) => t.onPath)).toEqual([true, false, false, false]);
    // The long run collapsed: the tip marks sit on draw nodes, and the chain is not a tip.
    expect(view.drawTree.nodes.has('chain:b')).toBe(true);
    for (const t of marks.tips) expect(view.drawTree.nodes.get(t.drawId)!.children).toEqual([]);
  });

  it('places everything along the trunk by entry count; side marks sit where their branch forks off', () => {
    const { marks } = sample();
    // r, a, then b…k19 (21 entries as one chain), then the leaf.
    expect(marks.total).toBe(24);
    expect(marks.trunk.map((t) => [t.drawId, t.at, t.count])).toEqual([
      ['r', 0, 1],
      ['a', 1, 1],
      ['chain:b', 2, 21],
      ['leaf', 23, 1],
    ]);
    expect(marks.leaf).toBe(23);
    expect(marks.compactions).toEqual([]);
    expect(marks.sideCompactions).toEqual([1]);
    expect(marks.forks).toEqual([{ at: 1, tips: 3 }]);
    expect(marks.tips.slice(1).every((t) => t.at === 1)).toBe(true);
    expect(trunkAt(marks, 0)).toBe('r');
    expect(trunkAt(marks, 12)).toBe('chain:b');
    expect(trunkAt(marks, 23)).toBe('leaf');
  });

  it('maps strip pixels to trunk positions and back, and finds a tip near a position', () => {
    const { marks } = sample();
    const f = { total: marks.total, height: 250, pad: 5 };
    expect(stripY(f, 0)).toBe(5);
    expect(stripY(f, 24)).toBe(245);
    expect(stripAt(f, stripY(f, 12) + 1)).toBe(12);
    expect(stripAt(f, -40)).toBe(0);
    expect(stripAt(f, 4000)).toBe(23);
    expect(tipNear(marks, 2, 1)?.entryId).toBe('x1');
    expect(tipNear(marks, 12, 2)).toBeNull();
  });

  it('spans the trunk positions of the trunk rows the canvas shows', () => {
    const { marks, view, graph } = sample();
    const lod = buildLodView(view, graph, { level: 99, rowsFit: 9, pinned: new Set() });
    expect(viewportSpan(marks, lod, { top: 0, bottom: 1 })).toEqual({ from: 0, to: 2 });
    expect(viewportSpan(marks, lod, { top: 2, bottom: 40 })).toEqual({ from: 2, to: 24 });
    expect(viewportSpan(marks, lod, { top: 50, bottom: 60 })).toBeNull();
  });
});

describe('tips', () => {
  it('steps to the next and previous tip in tree order, wrapping', () => {
    const { marks, view } = sample();
    const posOf = (id: string) => view.drawTree.nodes.get(id)!.orderPos;
    const ids = (from: string | null, d: 1 | -1) =>
      stepTip(marks.tips, posOf, from === null ? null : posOf(from), d)?.entryId;
    expect(ids(null, 1)).toBe('leaf');
    expect(ids(null, -1)).toBe('t');
    expect(ids('leaf', 1)).toBe('x1');
    expect(ids('x1', -1)).toBe('leaf');
    expect(ids('t', 1)).toBe('leaf');
    expect(ids('leaf', -1)).toBe('t');
    // From an inner node: the first tip after it in pre-order (cp → y2), the last one before it.
    expect(ids('cp', 1)).toBe('y2');
    expect(ids('cp', -1)).toBe('x1');
  });

  it("previews a tip by its own message, else its nearest message ancestor's, lazy previews included", () => {
    const { index } = sample();
    expect(tipPreview(index, 'x1')).toBe('abandoned idea');
    expect(tipPreview(index, 't')).toBe('after the summary');
    expect(tipPreview(index, 't', { t: { preview: 'tool said ok' } as never })).toBe('tool said ok');
  });
});
