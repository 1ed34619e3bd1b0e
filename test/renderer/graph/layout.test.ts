import { describe, expect, it } from 'vitest';
import {
  collapseChains,
  drawNodeOf,
  memberIds,
  type CollapseOptions,
  type DrawTree,
} from '../../../renderer/src/features/graph/model/collapse';
import { filterTree } from '../../../renderer/src/model/filters';
import {
  LANE_PITCH,
  NODE_HEIGHT,
  NODE_WIDTH,
  placeLod,
  type Layout,
} from '../../../renderer/src/features/graph/model/layout';
import { buildLod } from '../../../renderer/src/features/graph/model/lod';
import { buildTreeIndex } from '../../../renderer/src/model/tree-index';
import { buildGraphView } from '../../../renderer/src/features/graph/model/view';
import type { EntryNodeDto } from '../../../electron/shared/dto';
import { chain, graphOf, lines, node } from '../helpers';

const ALL = { mode: 'all' as const, showLeafRecords: true, leafId: null, labels: {} };

function draw(entries: EntryNodeDto[], leafId: string, c: Partial<CollapseOptions> = {}) {
  const index = buildTreeIndex(entries, leafId);
  const vt = filterTree(index, { ...ALL, leafId });
  const keep = c.keep ?? (() => false);
  return collapseChains(vt, { minRun: 4, page: 100, budget: 0, expanded: new Set(), ...c, keep });
}

const members = (t: DrawTree, id: string) => memberIds(t, t.nodes.get(id)!);

function assertNoOverlap(layout: Layout) {
  const byRow = new Map<number, number[]>();
  for (const p of layout.placed.values()) {
    const row = byRow.get(p.y) ?? [];
    row.push(p.x);
    byRow.set(p.y, row);
  }
  for (const xs of byRow.values()) {
    xs.sort((a, b) => a - b);
    for (let i = 1; i < xs.length; i++) expect(xs[i]! - xs[i - 1]!).toBeGreaterThanOrEqual(NODE_WIDTH);
  }
}

describe('collapseChains', () => {
  it('collapses a linear run between special nodes into one chain node', () => {
    const entries = chain(10);
    const t = draw(entries, 'e9');
    // e0 is a root (special), e9 a path end (special); e1..e8 become one chain.
    expect(t.roots).toEqual(['e0']);
    expect(t.nodes.get('e0')!.children).toEqual(['chain:e1']);
    expect(members(t, 'chain:e1')).toEqual(['e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7', 'e8']);
    expect(t.nodes.get('chain:e1')!.children).toEqual(['e9']);
    expect(drawNodeOf(t, 'e5')?.id).toBe('chain:e1');
  });

  it('keeps branch points, path ends and kept entries (compaction, label, leaf, selection) visible', () => {
    const entries = [...chain(12), ...chain(6, 'b', 'e3')];
    const t = draw(entries, 'e11', { keep: (i) => entries[i]?.id === 'e7', minRun: 3 });
    // e3 has two children: a branch point, drawn on its own; so are e7 (kept) and both ends.
    for (const id of ['e0', 'e3', 'e7', 'e11', 'b5']) expect(t.nodes.get(id)?.kind, id).toBe('entry');
    expect(members(t, 'chain:e4')).toEqual(['e4', 'e5', 'e6']);
    expect(members(t, 'chain:e8')).toEqual(['e8', 'e9', 'e10']);
    expect(members(t, 'chain:b0')).toEqual(['b0', 'b1', 'b2', 'b3', 'b4']);
  });

  it('leaves runs shorter than minRun alone, and small trees entirely (budget)', () => {
    expect(draw(chain(6), 'e5').nodes.size).toBe(3); // e0, chain(e1..e4), e5
    expect(draw(chain(5), 'e4').nodes.size).toBe(5); // a run of 3 < minRun 4
    expect(draw(chain(5), 'e4', { minRun: 3 }).nodes.has('chain:e1')).toBe(true);
    expect(draw(chain(50), 'e49', { budget: 50 }).nodes.size).toBe(50);
  });

  it('expands a chain a page at a time', () => {
    const t = draw(chain(300), 'e299', { expanded: new Set(['e1']), page: 100 });
    for (let i = 1; i <= 100; i++) expect(t.nodes.get(`e${i}`)?.kind).toBe('entry');
    expect(members(t, 'chain:e101')).toHaveLength(198);
    const t2 = draw(chain(300), 'e299', { expanded: new Set(['e1', 'e101']), page: 100 });
    expect(members(t2, 'chain:e201')).toHaveLength(98);
  });
});

/** The finest level's lane layout of a draw tree. */
function laneLayout(t: DrawTree, leaf: string): Layout {
  const facts = { weight: () => 1, isCompaction: () => false };
  const opts = { rows: Number.POSITIVE_INFINITY, sideNodes: Number.POSITIVE_INFINITY, pinned: new Set<string>(), leaf };
  return placeLod(buildLod(t, facts, opts));
}

describe('lane layout', () => {
  it('puts the leaf path down lane 0, a fork beside its row, its line down its own lane, without overlap', () => {
    const entries = lines([
      node('r', null),
      node('a', 'r'),
      node('b', 'r'),
      node('c', 'r'),
      node('a1', 'a'),
      node('a2', 'a'),
    ]);
    const t = draw(entries, 'a2', { budget: 1000 });
    const layout = laneLayout(t, 'a2');
    const p = (id: string) => layout.placed.get(id)!;
    for (const id of ['r', 'a', 'a2']) expect(p(id).x, id).toBe(0);
    expect(p('a').y).toBeGreaterThan(p('r').y);
    expect(p('a2').y).toBeGreaterThan(p('a').y);
    // b and c fork off r: beside r's row, each in its own lane; a1 forks off a.
    expect(p('b').y).toBe(p('r').y);
    expect(p('b').x).toBeGreaterThanOrEqual(LANE_PITCH);
    expect(p('c').x).toBeGreaterThan(p('b').x);
    expect(p('a1').y).toBe(p('a').y);
    assertNoOverlap(layout);
    expect(layout.order[0]).toBe('r');
  });

  it('lays several roots out beside the first one', () => {
    const entries = lines([node('r1', null), node('r2', null), node('x', 'r2'), node('r3', 'missing')]);
    const layout = laneLayout(draw(entries, 'x', { budget: 1000 }), 'x');
    expect(layout.placed.size).toBe(4);
    expect(layout.placed.get('r2')!.x).toBe(0); // the leaf's root is the trunk
    for (const r of ['r1', 'r3']) expect(layout.placed.get(r)!.x).toBeGreaterThan(0);
    assertNoOverlap(layout);
  });

  it('lays out a 20k-entry uncollapsed chain without recursion', () => {
    const layout = laneLayout(draw(chain(20_000), 'e19999', { budget: Infinity }), 'e19999');
    expect(layout.placed.size).toBe(20_000);
    expect(layout.placed.get('e19999')!.depth).toBe(19_999);
    expect(layout.height).toBeGreaterThan(19_999 * NODE_HEIGHT);
  });
});

describe('buildGraphView', () => {
  // Its speed is a bench target (collapse + layout); here only what it draws.
  it('collapses a 100k-entry chain to a handful of nodes', () => {
    const entries = chain(100_000);
    const graph = graphOf(entries);
    const index = buildTreeIndex(entries, graph.leafId);
    const view = buildGraphView(graph, index, {
      filterMode: 'default',
      showLeafRecords: false,
      expanded: new Set(),
      selectedId: null,
    });
    expect(view.stats.drawn).toBeLessThanOrEqual(3);
    expect(view.stats.entries).toBe(100_000);
    expect(view.drawOnPath.size).toBe(view.stats.drawn);
  });

  it('draws a selected entry deep inside a chain on its own and maps hidden entries to drawn ones', () => {
    const entries = chain(1000);
    const graph = graphOf(entries);
    const index = buildTreeIndex(entries, graph.leafId);
    const view = buildGraphView(graph, index, {
      filterMode: 'default',
      showLeafRecords: false,
      expanded: new Set(),
      selectedId: 'e500',
    });
    expect(view.drawTree.nodes.get('e500')?.kind).toBe('entry');
    expect(view.drawNodeOf('e400')?.id).toBe('chain:e1');
    expect(view.drawNodeOf('e600')?.id).toBe('chain:e501');
  });

  it('keeps compactions, their first kept entries and labeled entries out of chains', () => {
    const base = chain(400);
    const entries = base.map((e) =>
      e.id === 'e200'
        ? { ...e, type: 'compaction', role: undefined, checkpoint: 'first-kept' as const, firstKeptEntryId: 'e150' }
        : e,
    );
    const graph = graphOf(entries, { labels: { e300: 'here' } });
    const view = buildGraphView(graph, buildTreeIndex(entries, graph.leafId), {
      filterMode: 'default',
      showLeafRecords: false,
      expanded: new Set(),
      selectedId: null,
    });
    for (const id of ['e150', 'e200', 'e300']) expect(view.drawTree.nodes.get(id)?.kind, id).toBe('entry');
  });

  it('separates the profile path from leaf ancestors beyond an H3 checkpoint', () => {
    const entries = chain(6);
    const graph = graphOf(entries, { pathIds: ['e3', 'e4', 'e5'], profile: 'h3' });
    const view = buildGraphView(graph, buildTreeIndex(entries, 'e5'), {
      filterMode: 'all',
      showLeafRecords: false,
      expanded: new Set(),
      selectedId: null,
      collapse: { budget: 1000 },
    });
    const flagged = (flags: Uint8Array) => view.index.ids.filter((_, i) => flags[i] === 1);
    expect(flagged(view.onPath)).toEqual(['e3', 'e4', 'e5']);
    expect(flagged(view.beyondCheckpoint)).toEqual(['e0', 'e1', 'e2']);
  });
});
