import { describe, expect, it } from 'vitest';
import { toFlowEdges, toFlowNodes } from '../../../renderer/src/features/graph/model/flow';
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
  return { graph, view };
}

describe('react-flow nodes and edges', () => {
  it('marks path edges, draws a dashed edge from a first-kept compaction to its first kept entry (or the chain holding it)', () => {
    const entries = chain(400).map((e) =>
      e.id === 'e300'
        ? { ...e, type: 'compaction', role: undefined, checkpoint: 'first-kept' as const, firstKeptEntryId: 'e250' }
        : e,
    );
    const { view } = viewOf(entries);
    const edges = toFlowEdges(view);
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
    const v2 = viewOf(hidden).view;
    const target = toFlowEdges(v2).find((e) => e.className === 'first-kept-edge')!.target;
    expect(target).toBe(v2.drawNodeOf('e249')!.id);
  });

  it('marks a retained-tail compaction edge as a cut and tags node attributes', () => {
    const entries = chain(6).map((e) =>
      e.id === 'e3' ? { ...e, type: 'compaction', role: undefined, checkpoint: 'retained-tail' as const } : e,
    );
    const { view, graph } = viewOf(entries, ['e3', 'e4', 'e5']);
    const edges = toFlowEdges(view);
    expect(edges.find((e) => e.target === 'e3')!.className).toContain('checkpoint-cut');
    expect(edges.find((e) => e.target === 'e2')!.className).toContain('beyond-checkpoint');
    const nodes = toFlowNodes(view, graph, { cursorId: 'e1', selectedId: 'e2', matches: new Set(['e4']) });
    const attr = (id: string) => nodes.find((n) => n.id === id)!.domAttributes as Record<string, string>;
    expect(attr('e3')).toMatchObject({
      'data-kind': 'compaction',
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
