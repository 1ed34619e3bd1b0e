import { hierarchy, tree as tidyTree } from 'd3-hierarchy';
import type { DrawTree } from './collapse';

/** Every node has the same size, given to react-flow up front so nothing waits for measuring. */
export const NODE_WIDTH = 236;
export const NODE_HEIGHT = 60;
const GAP_X = 28;
const GAP_Y = 38;

export interface Placed {
  id: string;
  /** Top-left corner. */
  x: number;
  y: number;
  depth: number;
}

export interface Layout {
  placed: Map<string, Placed>;
  /** Draw-node ids in pre-order (the order keyboard and search walk). */
  order: string[];
  width: number;
  height: number;
}

const VIRTUAL_ROOT = '\u0000virtual-root';

/**
 * Tidy tree layout (d3-hierarchy, Buchheim et al.; its walks are iterative) over the collapsed
 * tree, top-down. Several roots hang under one virtual root that is not drawn.
 */
export function layoutTree(drawTree: DrawTree): Layout {
  const placed = new Map<string, Placed>();
  const order: string[] = [];
  if (drawTree.roots.length === 0) return { placed, order, width: 0, height: 0 };

  const root = hierarchy<string>(VIRTUAL_ROOT, (id) =>
    id === VIRTUAL_ROOT ? drawTree.roots : drawTree.nodes.get(id)?.children,
  );
  tidyTree<string>()
    .nodeSize([NODE_WIDTH + GAP_X, NODE_HEIGHT + GAP_Y])
    .separation((a, b) => (a.parent === b.parent ? 1 : 1.2))(root);

  let minX = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxDepth = 0;
  root.eachBefore((n) => {
    if (n.data === VIRTUAL_ROOT) return;
    const x = n.x ?? 0;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (n.depth > maxDepth) maxDepth = n.depth;
  });
  root.eachBefore((n) => {
    if (n.data === VIRTUAL_ROOT) return;
    const depth = n.depth - 1;
    placed.set(n.data, { id: n.data, x: (n.x ?? 0) - minX, y: depth * (NODE_HEIGHT + GAP_Y), depth });
    order.push(n.data);
  });
  return {
    placed,
    order,
    width: maxX - minX + NODE_WIDTH,
    height: maxDepth * (NODE_HEIGHT + GAP_Y) - GAP_Y,
  };
}
