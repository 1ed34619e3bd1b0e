/**
 * Where the overview sits on the canvas: the first corner where it covers none of the nodes it
 * must leave visible (the leaf, the selection). The bottom-left corner holds the zoom buttons.
 * PURE.
 */
export type OverviewCorner = 'bottom-right' | 'top-right' | 'top-left';
const CORNERS: readonly OverviewCorner[] = ['bottom-right', 'top-right', 'top-left'];

export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** react-flow's panel margin (px). */
export const PANEL_MARGIN = 15;

export function cornerRect(
  corner: OverviewCorner,
  pane: { width: number; height: number },
  box: { width: number; height: number },
): Rect {
  const left = corner === 'top-left' ? PANEL_MARGIN : pane.width - PANEL_MARGIN - box.width;
  const top = corner === 'bottom-right' ? pane.height - PANEL_MARGIN - box.height : PANEL_MARGIN;
  return { left, top, width: box.width, height: box.height };
}

function overlaps(a: Rect, b: Rect): boolean {
  return a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;
}

/** null: every corner would cover one of `avoid` (the overview then stays hidden). */
export function overviewCorner(
  pane: { width: number; height: number },
  box: { width: number; height: number },
  avoid: readonly Rect[],
): OverviewCorner | null {
  for (const corner of CORNERS) {
    const r = cornerRect(corner, pane, box);
    if (!avoid.some((a) => overlaps(r, a))) return corner;
  }
  return null;
}

/** A node's box on screen, from its layout centre and the canvas transform [x, y, zoom]. */
export function screenRect(
  centre: { x: number; y: number },
  size: { width: number; height: number },
  transform: readonly [number, number, number],
): Rect {
  const [tx, ty, zoom] = transform;
  return {
    left: (centre.x - size.width / 2) * zoom + tx,
    top: (centre.y - size.height / 2) * zoom + ty,
    width: size.width * zoom,
    height: size.height * zoom,
  };
}
