import type { Lod } from './lod';

/** Every node has the same size, given to react-flow up front so nothing waits for measuring. */
export const NODE_WIDTH = 236;
export const NODE_HEIGHT = 60;
const GAP_X = 36;
const GAP_Y = 12;
export const LANE_PITCH = NODE_WIDTH + GAP_X;
export const ROW_PITCH = NODE_HEIGHT + GAP_Y;

export interface Placed {
  id: string;
  /** Top-left corner. */
  x: number;
  y: number;
  depth: number;
}

export interface Layout {
  placed: Map<string, Placed>;
  /** Drawn node ids in pre-order (the order keyboard and search walk). */
  order: string[];
  width: number;
  height: number;
}

/** Lanes across, rows down: a node's place is its lane and row, nothing to solve. */
export function placeLod(lod: Lod): Layout {
  const placed = new Map<string, Placed>();
  for (const n of lod.nodes.values())
    placed.set(n.id, { id: n.id, x: n.lane * LANE_PITCH, y: n.row * ROW_PITCH, depth: n.row });
  return {
    placed,
    order: lod.order,
    width: lod.lanes * LANE_PITCH - GAP_X,
    height: Math.max(0, lod.rows * ROW_PITCH - GAP_Y),
  };
}

/** The zoom fit aims at: node text (11.5 px) stays at least 11 px on screen. */
export const FIT_ZOOM = 0.96;

/** How many rows fit a pane's height at a zoom (the level-0 budget). */
export function rowsFitting(paneHeight: number, zoom: number): number {
  return Math.max(3, Math.floor((paneHeight / zoom + GAP_Y) / ROW_PITCH));
}
