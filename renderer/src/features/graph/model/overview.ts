import { membersOf } from './collapse';
import { trunkOf } from './lod';
import type { LodView } from './lod-view';
import type { GraphView } from './view';

/**
 * The overview: the session along its trunk (the leaf's path), top to bottom by entry count,
 * whatever the zoom level. Marks are trunk positions: a side branch's marks sit where it forks
 * off. PURE.
 */
export interface OverviewTip {
  /** The entry the tip ends in (a chain's last member), what a jump selects. */
  entryId: string;
  /** The draw node holding it. */
  drawId: string;
  /** Trunk position: its own on the trunk, else where its branch forks off. */
  at: number;
  onPath: boolean;
}

export interface OverviewMarks {
  /** Entries along the trunk (the strip's length). */
  total: number;
  /** Trunk draw nodes in order, with where each starts and how many entries it holds. */
  trunk: Array<{ drawId: string; at: number; count: number }>;
  compactions: number[];
  /** Compactions off the trunk, at their fork. */
  sideCompactions: number[];
  labels: number[];
  /** Where side branches fork off, and how many tips they end in. */
  forks: Array<{ at: number; tips: number }>;
  /** Every tip in tree order (pre-order, the leaf's branch first). */
  tips: OverviewTip[];
  leaf: number | null;
}

export function overviewMarks(view: GraphView, leafId: string | null, labels: Readonly<Record<string, string>> = {}) {
  const { drawTree, index } = view;
  const leafDraw = leafId ? (view.drawNodeOf(leafId)?.id ?? null) : null;
  const trunkIds = trunkOf(drawTree, leafDraw);
  const at = new Map<string, number>();
  const onTrunk = new Set(trunkIds);
  const trunk: OverviewMarks['trunk'] = [];
  let total = 0;
  for (const id of trunkIds) {
    const count = drawTree.nodes.get(id)!.count;
    trunk.push({ drawId: id, at: total, count });
    at.set(id, total);
    total += count;
  }
  const marks: OverviewMarks = {
    total,
    trunk,
    compactions: [],
    sideCompactions: [],
    labels: [],
    forks: [],
    tips: [],
    leaf: leafDraw === null ? null : (at.get(leafDraw) ?? null),
  };
  const forkTips = new Map<number, number>();
  // Nodes come in pre-order: a parent's position is known before its children's.
  for (const d of drawTree.nodes.values()) {
    if (!onTrunk.has(d.id)) {
      const parent = d.parent === null ? undefined : drawTree.nodes.get(d.parent)!;
      const p = parent ? at.get(parent.id)! + (onTrunk.has(parent.id) ? parent.count - 1 : 0) : 0;
      at.set(d.id, p);
    }
    const pos = at.get(d.id)!;
    const entry = index.entries[d.first]!;
    if (d.kind === 'entry' && entry.type === 'compaction')
      (onTrunk.has(d.id) ? marks.compactions : marks.sideCompactions).push(pos);
    if (d.kind === 'entry' && labels[d.id] !== undefined) marks.labels.push(pos);
    if (d.children.length === 0) {
      const members = membersOf(drawTree, d);
      marks.tips.push({
        entryId: index.ids[members[members.length - 1]!]!,
        drawId: d.id,
        at: pos,
        onPath: onTrunk.has(d.id),
      });
      if (!onTrunk.has(d.id)) forkTips.set(pos, (forkTips.get(pos) ?? 0) + 1);
    }
  }
  marks.forks = [...forkTips].map(([p, tips]) => ({ at: p, tips }));
  return marks;
}

/** Trunk position ↔ strip pixels (top to bottom, `pad` free at both ends). */
export interface StripFrame {
  total: number;
  height: number;
  pad: number;
}
export const stripY = (f: StripFrame, at: number) => f.pad + (f.total > 0 ? at / f.total : 0) * (f.height - 2 * f.pad);
export const stripAt = (f: StripFrame, y: number) =>
  Math.max(0, Math.min(f.total - 1, Math.floor(((y - f.pad) / Math.max(1, f.height - 2 * f.pad)) * f.total)));

/** The trunk draw node holding a trunk position (binary search). */
export function trunkAt(marks: OverviewMarks, pos: number): string | null {
  let lo = 0;
  let hi = marks.trunk.length - 1;
  if (hi < 0) return null;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (marks.trunk[mid]!.at <= pos) lo = mid;
    else hi = mid - 1;
  }
  return marks.trunk[lo]!.drawId;
}

/** The trunk positions the canvas shows: the trunk rows between its top and bottom. */
export function viewportSpan(
  marks: OverviewMarks,
  lod: LodView,
  rows: { top: number; bottom: number },
): { from: number; to: number } | null {
  const start = new Map(marks.trunk.map((t) => [t.drawId, t]));
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  for (const n of lod.lod.nodes.values()) {
    if (!n.trunk || n.row < rows.top || n.row > rows.bottom) continue;
    const a = start.get(n.draws[0]!);
    const b = start.get(n.draws[n.draws.length - 1]!);
    if (!a || !b) continue;
    from = Math.min(from, a.at);
    to = Math.max(to, b.at + b.count);
  }
  return from <= to ? { from, to } : null;
}

/** The tip nearest a trunk position within `slack` positions whose branch forks off there. */
export function tipNear(marks: OverviewMarks, pos: number, slack: number): OverviewTip | null {
  let best: OverviewTip | null = null;
  for (const t of marks.tips) {
    const d = Math.abs(t.at - pos);
    if (d <= slack && (!best || d < Math.abs(best.at - pos))) best = t;
  }
  return best;
}
