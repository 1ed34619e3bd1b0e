import { describe, expect, it } from 'vitest';
import { toFlowEdges } from '../../../renderer/src/features/graph/model/flow-edges';
import { toFlowNodes } from '../../../renderer/src/features/graph/model/flow-nodes';
import { buildLodView } from '../../../renderer/src/features/graph/model/lod-view';
import { buildTreeIndex } from '../../../renderer/src/model/tree-index';
import { buildGraphView } from '../../../renderer/src/features/graph/model/view';
import type { EntryNodeDto } from '../../../electron/shared/dto';
import { chain, graphOf } from '../helpers';

function viewOf(entries: EntryNodeDto[], pathIds?: string[]) {
  const graph = graphOf(entries, pathIds ? { pathIds } : {});
  const view = buildGraphView(graph, buildTreeIndex(entries, graph.leafId), {
    filterMode: 'default',
    showLeafRecords: false,
    expanded: new Set(),
    selectedId: null,
  });
  // The finest level: every draw node on its own.
  const lod = buildLodView(view, graph, { level: 99, rowsFit: 9, pinned: new Set() });
  return { graph, view, lod };
}

describe('react-flow nodes and edges', () => {
  it('marks path edges, draws a dashed edge from a first-kept compaction to its first kept entry (or the chain holding it)', () => {
    const entries = chain(400).map((e) =>
      e.id === 'e300'
        ? { ...e, type: 'compaction', role: undefined, checkpoint: 'first-kept' as const, firstKeptEntryId: 'e250' }
        : e,
    );
    const { view, lod } = viewOf(entries);
    const edges = toFlowEdges(view, lod);
    const kept = edges.filter((e) => e.className === 'first-kept-edge');
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ source: 'e300', target: 'e250', sourceHandle: 'ks', targetHandle: 'kt' });
    expect(edges.filter((e) => e.id.startsWith('e:')).every((e) => e.className?.includes('on-path'))).toBe(true);

    // When the first kept entry is not drawn on its own, the edge goes to what draws it.
    const hidden = chain(400).map((e) =>
      e.id === 'e300'
        ? { ...e, type: 'compaction', role: undefined, checkpoint: 'first-kept' as const, firstKeptEntryId: 'e250' }
        : e.id === 'e250'
          ? { ...e, type: 'custom', role: undefined }
          : e,
    );
    const { view: v2, lod: l2 } = viewOf(hidden);
    const target = toFlowEdges(v2, l2).find((e) => e.className === 'first-kept-edge')!.target;
    expect(target).toBe(v2.drawNodeOf('e249')!.id);
  });

  it('marks a retained-tail compaction edge as a cut and tags node attributes', () => {
    const entries = chain(6).map((e) =>
      e.id === 'e3' ? { ...e, type: 'compaction', role: undefined, checkpoint: 'retained-tail' as const } : e,
    );
    const { view, graph, lod } = viewOf(entries, ['e3', 'e4', 'e5']);
    const edges = toFlowEdges(view, lod);
    expect(edges.find((e) => e.target === 'e3')!.className).toContain('checkpoint-cut');
    expect(edges.find((e) => e.target === 'e2')!.className).toContain('beyond-checkpoint');
    const nodes = toFlowNodes(view, lod, graph, { cursorId: 'e1', selectedId: 'e2', matches: new Set(['e4']) });
    const attr = (id: string) => nodes.find((n) => n.id === id)!.domAttributes as Record<string, string>;
    expect(attr('e3')).toMatchObject({
      'data-kind': 'entry',
      'data-entry-kind': 'compaction',
      'data-on-path': 'true',
      'data-checkpoint': 'retained-tail',
    });
    expect(attr('e2')['data-on-path']).toBeUndefined();
    expect(attr('e5')['data-leaf']).toBe('true');
    expect(attr('e4')['data-match']).toBe('true');
    const e2 = nodes.find((n) => n.id === 'e2')!;
    expect(e2.width).toBeGreaterThan(0);
    expect(e2.height).toBeGreaterThan(0);
    expect(e2.data).toMatchObject({ isSelected: true, beyondCheckpoint: true });
  });
});

describe('nodes at a coarse level', () => {
  it('a run and a cluster carry what they stand for (data-entries, data-tips, data-compactions)', () => {
    const entries = chain(300).map((e, i) => (i % 60 === 30 ? { ...e, type: 'compaction', role: undefined } : e));
    const side = chain(5, 's', 'e100');
    const graph = graphOf([...entries, ...side], { leafId: 'e299' });
    const view = buildGraphView(graph, buildTreeIndex(graph.entries, 'e299'), {
      filterMode: 'default',
      showLeafRecords: false,
      expanded: new Set(),
      selectedId: null,
    });
    const lod = buildLodView(view, graph, { level: 0, rowsFit: 4, pinned: new Set() });
    const nodes = toFlowNodes(view, lod, graph, { cursorId: null, selectedId: null, matches: new Set() });
    const attr = (n: (typeof nodes)[number]) => n.domAttributes as Record<string, string>;
    const kinds = new Set(nodes.map((n) => attr(n)['data-kind']));
    expect(kinds).toEqual(new Set(['entry', 'chain', 'cluster']));
    const total = (key: string) => nodes.reduce((a, n) => a + Number(attr(n)[key] ?? 0), 0);
    const entryNodes = nodes.filter((n) => attr(n)['data-kind'] === 'entry');
    expect(total('data-entries') + entryNodes.length).toBe(view.stats.visible);
    expect(
      total('data-tips') + entryNodes.filter((n) => view.drawTree.nodes.get(n.id)!.children.length === 0).length,
    ).toBe(2);
    const comp = entryNodes.filter((n) => attr(n)['data-entry-kind'] === 'compaction').length;
    expect(total('data-compactions') + comp).toBe(5);
    const cluster = nodes.find((n) => attr(n)['data-kind'] === 'cluster')!;
    expect(cluster.data).toMatchObject({ tips: 1, entries: 5, firstPrompt: 'step 0' });
  });
});
