import type { SessionGraphDto } from '../../../lib/shared';
import { buildLod, finestLevel, levelOptions, trunkOf, type Lod, type LodFacts } from './lod';
import { placeLod, type Layout } from './layout';
import type { GraphView } from './view';

/**
 * What earns a trunk row first: compactions, labels, branch points (the more tips off them the
 * more), user prompts, then other entries; a collapsed run least.
 */
export function lodFacts(view: GraphView, labels: Readonly<Record<string, string>>): LodFacts {
  const { index } = view;
  const isCompaction: LodFacts['isCompaction'] = (d) =>
    d.kind === 'entry' && index.entries[d.first]!.type === 'compaction';
  return {
    isCompaction,
    weight(d) {
      if (d.kind === 'chain') return 1;
      const e = index.entries[d.first]!;
      if (e.type === 'compaction') return 1000;
      if (labels[d.id] !== undefined) return 900;
      if (d.children.length > 1) return 100 + Math.min(99, d.children.length);
      if (e.type === 'message' && e.role === 'user') return 10;
      return 2;
    },
  };
}

export interface LodView {
  lod: Lod;
  layout: Layout;
  level: number;
  /** The level that draws every draw node on its own. */
  finest: number;
}

/** Up to this many draw nodes a session opens at its finest level; above, at OPEN_LEVEL around the leaf. */
export const OPEN_FULL = 600;
export const OPEN_LEVEL = 2;

/**
 * The level a session opens at, and what it pins there: a small tree whole; a big one as a skeleton
 * with the leaf's neighbourhood (the trunk's last rows) drawn entry by entry, so the first frame
 * lays out and draws a few hundred nodes, not thousands.
 */
export function openingOf(view: GraphView, leafId: string | null, rowsFit: number): { level: number; pins: string[] } {
  if (view.drawTree.nodes.size <= OPEN_FULL) return { level: Number.POSITIVE_INFINITY, pins: [] };
  const leaf = leafId ? (view.drawNodeOf(leafId)?.id ?? null) : null;
  const trunk = trunkOf(view.drawTree, leaf);
  return { level: OPEN_LEVEL, pins: trunk.slice(-2 * rowsFit) };
}

/**
 * What stays opened when the level changes: fit (to level 0) shows the bare skeleton; zooming in
 * from the opening level keeps the leaf's neighbourhood drawn (in must never show less of it).
 */
export function pinsAfter(
  pins: ReadonlySet<string>,
  opening: { level: number; pins: string[] } | null,
  from: number,
  to: number | null,
): ReadonlySet<string> {
  if (to === 0) return pins.size === 0 ? pins : new Set();
  if (opening && to !== null && to > from && opening.pins.length > 0) return new Set([...pins, ...opening.pins]);
  return pins;
}

export function buildLodView(
  view: GraphView,
  graph: Pick<SessionGraphDto, 'labels' | 'leafId'>,
  opts: { level: number; rowsFit: number; pinned: ReadonlySet<string> },
): LodView {
  const leaf = graph.leafId ? (view.drawNodeOf(graph.leafId)?.id ?? null) : null;
  const finest = finestLevel(view.drawTree, leaf, opts.rowsFit);
  const level = Math.max(0, Math.min(finest, opts.level));
  const lod = buildLod(view.drawTree, lodFacts(view, graph.labels), {
    ...levelOptions(level, opts.rowsFit),
    pinned: opts.pinned,
    leaf,
  });
  return { lod, layout: placeLod(lod), level, finest };
}
