import { describe, expect, it } from 'vitest';
import {
  fromOverview,
  overviewFrame,
  overviewMarks,
  tipAt,
  toOverview,
  viewportRect,
} from '../../../renderer/src/features/graph/model/overview';
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

const pairs = (a: Float64Array) => Array.from({ length: a.length / 2 }, (_, i) => [a[2 * i]!, a[2 * i + 1]!] as const);

describe('overviewMarks', () => {
  it('marks the tips in tree order, the leaf branch first, each ending in its last entry', () => {
    const { marks, view } = sample();
    expect(marks.tips.map((t) => t.entryId)).toEqual(['leaf', 'x1', 'y2', 't']);
    expect(marks.tips.map((t) => t.onPath)).toEqual([true, false, false, false]);
    // The long run collapsed: the tip marks sit on drawn nodes, and the chain is not a tip.
    expect(view.drawTree.nodes.has('chain:b')).toBe(true);
    for (const t of marks.tips) expect(view.drawTree.nodes.get(t.drawId)!.children).toEqual([]);
  });

  it('marks branch points and checkpoints at their node centres', () => {
    const { marks, view } = sample();
    const centre = (id: string) => {
      const p = view.layout.placed.get(id)!;
      return [p.x + 118, p.y + 30] as const;
    };
    expect(pairs(marks.branchPoints)).toEqual([centre('a'), centre('y1')]);
    expect(pairs(marks.checkpoints)).toEqual([centre('cp')]);
    expect(marks.leaf).toEqual({ x: centre('leaf')[0], y: centre('leaf')[1] });
  });

  it('splits edges into the active path and the rest', () => {
    const { marks, view } = sample();
    // r→a→(b…k19 as one chain)→leaf: three segments.
    const onPath = [...view.drawOnPath];
    expect(onPath.sort()).toEqual(['a', 'chain:b', 'leaf', 'r']);
    expect(marks.pathEdges.length / 4).toBe(3);
    expect(marks.edges.length / 4).toBe(view.drawTree.nodes.size - 1 - 3);
  });
});

describe('overview frame', () => {
  it('stretches each axis on its own and maps back', () => {
    const f = overviewFrame({ width: 100, height: 10_000 }, { width: 212, height: 112 }, 6);
    expect(toOverview(f, 100, 10_000)).toEqual({ x: 206, y: 106 });
    const back = fromOverview(f, 106, 56);
    expect(back.x).toBeCloseTo(50);
    expect(back.y).toBeCloseTo(5000);
  });

  it('finds the tip under a click and nothing away from the marks', () => {
    const { marks } = sample();
    const f = overviewFrame(marks, { width: 200, height: 140 });
    const y2 = marks.tips.find((t) => t.entryId === 'y2')!;
    const p = toOverview(f, y2.x, y2.y);
    expect(tipAt(marks, f, p.x + 2, p.y - 2)?.entryId).toBe('y2');
    expect(tipAt(marks, f, -50, -50)).toBeNull();
  });

  it('draws the viewport as the flow rectangle the canvas shows', () => {
    const f = overviewFrame({ width: 1000, height: 1000 }, { width: 112, height: 112 }, 6);
    // Zoom 0.5 at offset (-100, -200): the canvas (400×300) shows flow x 200..1000, y 400..1000.
    const r = viewportRect(f, [-100, -200, 0.5], { width: 400, height: 300 });
    expect(r.x).toBeCloseTo(6 + 20);
    expect(r.y).toBeCloseTo(6 + 40);
    expect(r.width).toBeCloseTo(80);
    expect(r.height).toBeCloseTo(60);
  });
});

describe('tips', () => {
  it('steps to the next and previous tip in tree order, wrapping', () => {
    const { marks, view } = sample();
    const order = view.layout.order;
    const ids = (from: string | null, d: 1 | -1) => stepTip(marks.tips, order, from, d)?.entryId;
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
