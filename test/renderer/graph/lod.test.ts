import { describe, expect, it } from 'vitest';
import { buildGraphView } from '../../../renderer/src/features/graph/model/view';
import {
  buildLodView,
  OPEN_FULL,
  OPEN_LEVEL,
  openingOf,
  pinsAfter,
} from '../../../renderer/src/features/graph/model/lod-view';
import { pickTrunk, trunkOf, type Lod } from '../../../renderer/src/features/graph/model/lod';
import { buildTreeIndex } from '../../../renderer/src/model/tree-index';
import type { EntryNodeDto } from '../../../electron/shared/dto';
import { chain, graphOf, node } from '../helpers';

/** A long trunk (a compaction every 100 entries) with a short side branch every 50. */
function longSession(n: number): EntryNodeDto[] {
  const out = chain(n);
  for (let i = 100; i < n; i += 100) out[i] = { ...out[i]!, type: 'compaction', role: undefined };
  for (let f = 25; f < n - 1; f += 50) out.push(...chain(3, `s${f}_`, `e${f}`));
  return out;
}

function lodOf(entries: EntryNodeDto[], leafId: string, level: number, pinned: string[] = []) {
  const graph = graphOf(entries, { leafId });
  const view = buildGraphView(graph, buildTreeIndex(graph.entries, leafId), {
    filterMode: 'all',
    showLeafRecords: true,
    expanded: new Set(),
    selectedId: null,
  });
  return { view, ...buildLodView(view, graph, { level, rowsFit: 9, pinned: new Set(pinned) }) };
}

const sum = (lod: Lod, key: 'entries' | 'tips' | 'compactions') =>
  [...lod.nodes.values()].reduce((a, n) => a + n[key], 0);

describe('levels of detail', () => {
  const entries = longSession(2000);
  const tips = 1 + 40; // the leaf and every side branch's end
  const compactions = 19;

  it('level 0: a skeleton within the row budget that accounts for every entry, tip and compaction', () => {
    const { lod, view } = lodOf(entries, 'e1999', 0);
    const trunkRows = [...lod.nodes.values()].filter((n) => n.trunk);
    expect(trunkRows.length).toBeLessThanOrEqual(9);
    expect(lod.nodes.get('e0')?.trunk).toBe(true);
    expect(lod.nodes.get('e1999')?.kind).toBe('entry');
    expect(sum(lod, 'entries')).toBe(view.stats.visible);
    expect(sum(lod, 'tips')).toBe(tips);
    expect(sum(lod, 'compactions')).toBe(compactions);
    // Side branches at level 0 are clusters beside their row, never more than one lane out.
    expect([...lod.nodes.values()].some((n) => n.kind === 'cluster')).toBe(true);
    expect(lod.lanes).toBeLessThanOrEqual(2);
    // Every draw node has an owner that exists.
    for (const d of view.drawTree.nodes.keys()) expect(lod.nodes.has(lod.ownerOf.get(d)!), d).toBe(true);
  });

  it('picks compactions before other entries when the budget is short', () => {
    const { lod } = lodOf(entries, 'e1999', 1);
    const drawn = [...lod.nodes.values()].filter((n) => n.trunk && n.kind === 'entry').map((n) => n.id);
    const comp = drawn.filter((id) => Number(id.slice(1)) % 100 === 0 && id !== 'e0');
    expect(comp.length).toBe(Math.min(compactions, drawn.length - 2));
  });

  it('each level draws more, and the finest draws every draw node on its own without overlap', () => {
    let prev = 0;
    let finest = 0;
    for (let level = 0; level <= 8; level++) {
      const r = lodOf(entries, 'e1999', level);
      expect(r.lod.nodes.size).toBeGreaterThanOrEqual(prev);
      prev = r.lod.nodes.size;
      finest = r.finest;
    }
    const { lod, view } = lodOf(entries, 'e1999', finest);
    expect(lod.nodes.size).toBe(view.drawTree.nodes.size);
    const cells = new Set([...lod.nodes.values()].map((n) => `${n.lane}:${n.row}`));
    expect(cells.size).toBe(lod.nodes.size);
    // Every edge is straight: one row down its lane, or across to a lane on its row.
    for (const n of lod.nodes.values()) {
      if (n.parent === null) continue;
      const p = lod.nodes.get(n.parent)!;
      expect(p.row === n.row || (p.lane === n.lane && n.row === p.row + 1), n.id).toBe(true);
    }
    // Each side branch hangs beside the row it forks from, its line down its own lane.
    const s = lod.nodes.get('s25_0')!;
    expect(s.row).toBe(lod.nodes.get('e25')!.row);
    expect(lod.nodes.get(s.parent!)!.id).toBe('e25');
  });

  it('a pinned node inside a run or a cluster is drawn on its own', () => {
    const before = lodOf(entries, 'e1999', 0);
    const run = before.view.drawNodeOf('e777')!.id;
    const side = before.view.drawNodeOf('s925_0')!.id;
    expect(before.lod.nodes.has(run)).toBe(false);
    expect(before.lod.nodes.has(side)).toBe(false);
    const { lod } = lodOf(entries, 'e1999', 0, [run, side]);
    expect(lod.nodes.get(run)?.trunk).toBe(true);
    expect(lod.nodes.get(side)?.trunk).toBe(false);
  });

  it('keeps lanes apart: a long side branch pushes the next fork one lane further', () => {
    const e = [...chain(10), ...chain(8, 'a', 'e2'), ...chain(2, 'b', 'e4')];
    const { lod } = lodOf(e, 'e9', 6);
    expect(lod.nodes.get('a0')!.lane).toBe(1);
    expect(lod.nodes.get('b0')!.lane).toBe(2);
  });
});

describe('trunk picking', () => {
  it('spreads equal weights over the trunk rather than bunching them at the top', () => {
    const entries = chain(1000);
    const graph = graphOf(entries, { leafId: 'e999' });
    const view = buildGraphView(graph, buildTreeIndex(graph.entries, 'e999'), {
      filterMode: 'all',
      showLeafRecords: true,
      expanded: new Set(),
      selectedId: null,
      collapse: { budget: Number.POSITIVE_INFINITY },
    });
    const trunk = trunkOf(view.drawTree, 'e999');
    const picked = pickTrunk(
      view.drawTree,
      trunk,
      { weight: () => 1, isCompaction: () => false },
      {
        rows: 9,
        pinned: new Set(),
      },
    );
    const at = [...picked].flatMap((p, i) => (p ? [i] : []));
    expect(at[0]).toBe(0);
    expect(at.at(-1)).toBe(999);
    expect(at.some((i) => i > 300 && i < 700)).toBe(true);
    // Every row of the budget is used (a pick inside a run costs two rows, beside a pick one).
    for (let rows = 5; rows <= 14; rows++) {
      const p = pickTrunk(
        view.drawTree,
        trunk,
        { weight: () => 1, isCompaction: () => false },
        { rows, pinned: new Set() },
      );
      let used = 0;
      for (let i = 0; i < p.length; i++) if (p[i] || i === 0 || p[i - 1]) used++;
      expect(used, `budget ${rows}`).toBe(rows);
    }
  });

  it('an empty tree has no rows', () => {
    const graph = graphOf([node('x', null)], { leafId: 'x' });
    const view = buildGraphView(graph, buildTreeIndex(graph.entries, 'x'), {
      filterMode: 'all',
      showLeafRecords: true,
      expanded: new Set(),
      selectedId: null,
    });
    expect(buildLodView(view, graph, { level: 0, rowsFit: 9, pinned: new Set() }).lod.nodes.size).toBe(1);
  });
});

describe('opening', () => {
  it('a small tree opens whole; a big one at a coarse level with the leaf’s neighbourhood pinned', () => {
    const small = lodOf(longSession(300), 'e299', 0);
    expect(openingOf(small.view, 'e299', 9)).toEqual({ level: Number.POSITIVE_INFINITY, pins: [] });
    const big = lodOf(longSession(6000), 'e5999', 0);
    expect(big.view.drawTree.nodes.size).toBeGreaterThan(OPEN_FULL);
    const o = openingOf(big.view, 'e5999', 9);
    expect(o.level).toBe(OPEN_LEVEL);
    expect(o.pins).toHaveLength(18);
    expect(o.pins.at(-1)).toBe('e5999');
    const opened = buildLodView(big.view, graphOf(longSession(6000), { leafId: 'e5999' }), {
      level: o.level,
      rowsFit: 9,
      pinned: new Set(o.pins),
    });
    for (const id of o.pins) expect(opened.lod.nodes.get(id)?.trunk, id).toBe(true);
    expect(opened.lod.nodes.size).toBeLessThan(big.view.drawTree.nodes.size / 4);
  });
});

describe('pins across level changes', () => {
  const opening = { level: 2, pins: ['n1', 'n2'] };
  it('fit shows the bare skeleton; zooming in from the opening keeps its neighbourhood', () => {
    const opened = new Set(['run1']);
    expect(pinsAfter(opened, opening, 2, 0).size).toBe(0);
    expect([...pinsAfter(opened, opening, 2, 3)].sort()).toEqual(['n1', 'n2', 'run1']);
    expect(pinsAfter(opened, opening, 2, 1)).toBe(opened);
    expect(pinsAfter(opened, null, 2, 3)).toBe(opened);
  });
});
