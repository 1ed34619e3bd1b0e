import { membersOf } from './collapse';
import { NODE_HEIGHT, NODE_WIDTH } from './layout';
import type { GraphView } from './view';

/**
 * The overview of the collapsed tree (what the minimap draws): marks in layout coordinates (node
 * centres), grouped by class so each class is one canvas path. PURE.
 */
export interface OverviewTip {
  /** The entry the tip ends in (a chain's last member), what a jump selects. */
  entryId: string;
  /** The drawn node holding it. */
  drawId: string;
  x: number;
  y: number;
  onPath: boolean;
}

export interface OverviewMarks {
  /** Layout bounds (the whole drawing). */
  width: number;
  height: number;
  /** Parent→child segments as x1,y1,x2,y2 runs: off the active path, and on it. */
  edges: Float64Array;
  pathEdges: Float64Array;
  /** Centres (x,y pairs) of drawn nodes with more than one child. */
  branchPoints: Float64Array;
  /** Centres of compactions (checkpoints). */
  checkpoints: Float64Array;
  /** Branch tips in tree order (pre-order, the leaf's branch first). */
  tips: OverviewTip[];
  /** Centre of the node showing the leaf. */
  leaf: { x: number; y: number } | null;
}

export function overviewMarks(view: GraphView, leafId: string | null): OverviewMarks {
  const { drawTree, layout, index } = view;
  const centre = (id: string) => {
    const p = layout.placed.get(id)!;
    return { x: p.x + NODE_WIDTH / 2, y: p.y + NODE_HEIGHT / 2 };
  };
  const edges: number[] = [];
  const pathEdges: number[] = [];
  const branchPoints: number[] = [];
  const checkpoints: number[] = [];
  const tips: OverviewTip[] = [];
  for (const id of layout.order) {
    const node = drawTree.nodes.get(id)!;
    const c = centre(id);
    if (node.parent !== null) {
      const p = centre(node.parent);
      const into = view.drawOnPath.has(id) && view.drawOnPath.has(node.parent) ? pathEdges : edges;
      into.push(p.x, p.y, c.x, c.y);
    }
    if (node.children.length > 1) branchPoints.push(c.x, c.y);
    if (node.kind === 'entry' && index.entries[node.first]!.type === 'compaction') checkpoints.push(c.x, c.y);
    if (node.children.length === 0) {
      const members = membersOf(drawTree, node);
      const last = members[members.length - 1]!;
      tips.push({ entryId: index.ids[last]!, drawId: id, x: c.x, y: c.y, onPath: view.drawOnPath.has(id) });
    }
  }
  const leafNode = leafId ? view.drawNodeOf(leafId) : null;
  return {
    width: layout.width,
    height: layout.height + NODE_HEIGHT,
    edges: Float64Array.from(edges),
    pathEdges: Float64Array.from(pathEdges),
    branchPoints: Float64Array.from(branchPoints),
    checkpoints: Float64Array.from(checkpoints),
    tips,
    leaf: leafNode ? centre(leafNode.id) : null,
  };
}

/**
 * Layout → overview pixels. Each axis is scaled on its own: a deep, narrow tree (the usual shape
 * of a long session) would otherwise shrink to a faint vertical line.
 */
export interface OverviewFrame {
  sx: number;
  sy: number;
  pad: number;
}

export function overviewFrame(
  bounds: { width: number; height: number },
  box: { width: number; height: number },
  pad = 6,
): OverviewFrame {
  const sx = bounds.width > 0 ? (box.width - 2 * pad) / bounds.width : 1;
  const sy = bounds.height > 0 ? (box.height - 2 * pad) / bounds.height : 1;
  return { sx, sy, pad };
}

export const toOverview = (f: OverviewFrame, x: number, y: number) => ({ x: f.pad + x * f.sx, y: f.pad + y * f.sy });
export const fromOverview = (f: OverviewFrame, x: number, y: number) => ({
  x: (x - f.pad) / f.sx,
  y: (y - f.pad) / f.sy,
});

/** The tip whose mark is within `radius` overview pixels of a point (the nearest), else null. */
export function tipAt(marks: OverviewMarks, f: OverviewFrame, x: number, y: number, radius = 6): OverviewTip | null {
  let best: OverviewTip | null = null;
  let bestD = radius * radius;
  for (const t of marks.tips) {
    const p = toOverview(f, t.x, t.y);
    const d = (p.x - x) ** 2 + (p.y - y) ** 2;
    if (d <= bestD) {
      best = t;
      bestD = d;
    }
  }
  return best;
}

/** The overview rectangle of what the canvas shows (react-flow transform [x, y, zoom] over a box). */
export function viewportRect(
  f: OverviewFrame,
  transform: readonly [number, number, number],
  box: { width: number; height: number },
) {
  const [tx, ty, zoom] = transform;
  const a = toOverview(f, -tx / zoom, -ty / zoom);
  const b = toOverview(f, (box.width - tx) / zoom, (box.height - ty) / zoom);
  return { x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y };
}
