/**
 * The viewport that shows a whole layout: computed from the layout's own bounds, since react-flow's
 * fitView only sees the nodes it has measured (with onlyRenderVisibleElements, the ones in view).
 * PURE.
 */
export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}

export function fitViewport(
  bounds: { width: number; height: number },
  box: { width: number; height: number },
  opts: { padding?: number; minZoom?: number; maxZoom?: number; rootX?: number } = {},
): Viewport | null {
  if (bounds.width <= 0 || bounds.height <= 0 || box.width <= 0 || box.height <= 0) return null;
  const pad = 1 + 2 * (opts.padding ?? 0.1);
  const fit = Math.min(box.width / (bounds.width * pad), box.height / (bounds.height * pad));
  const zoom = Math.min(opts.maxZoom ?? 1, Math.max(opts.minZoom ?? 0.05, fit));
  // Too big to fit at the smallest zoom: the top stays in view, and across, the first root (`rootX`,
  // layout coordinates) is centred: a deep tree drifts sideways, and its middle may be empty canvas.
  const y = bounds.height * zoom * pad <= box.height ? (box.height - bounds.height * zoom) / 2 : box.height * 0.05;
  const wide = bounds.width * zoom * pad > box.width || bounds.height * zoom * pad > box.height;
  const x =
    wide && opts.rootX !== undefined ? box.width / 2 - opts.rootX * zoom : (box.width - bounds.width * zoom) / 2;
  return { x, y, zoom };
}
