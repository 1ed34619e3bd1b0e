import { useReactFlow, type Viewport } from '@xyflow/react';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { useCanopy } from '../../app-context';
import { fitViewport } from './model/fit';
import { NODE_HEIGHT, NODE_WIDTH } from './model/layout';
import type { LodView } from './model/lod-view';
import { FIT_MARGIN, type LodState } from './useLod';
import type { GraphModel } from './useGraphModel';

export const MIN_ZOOM = 0.2;
export const MAX_ZOOM = 2;
/** Zoomed in past this, the next level opens (more rows) at zoom 1; zoomed out past the other, the coarser one. */
const ZOOM_IN_AT = 1.45;
const ZOOM_OUT_AT = 0.62;

/** The middle of a placed node (what centring on it aims at). */
export function middleOf(p: { x: number; y: number }): { x: number; y: number } {
  return { x: p.x + NODE_WIDTH / 2, y: p.y + NODE_HEIGHT / 2 };
}

/** The drawn node showing an entry (its draw node's owner at this level). */
export function drawnOf(model: GraphModel, lodView: LodView, entryId: string): string | null {
  const d = model.view.drawNodeOf(entryId);
  return d ? (lodView.lod.ownerOf.get(d.id) ?? null) : null;
}

/** The drawn node nearest a layout point. */
function nearest(lodView: LodView, x: number, y: number): string | null {
  let best: string | null = null;
  let bestD = Number.POSITIVE_INFINITY;
  for (const p of lodView.layout.placed.values()) {
    const m = middleOf(p);
    const d = (m.x - x) ** 2 + (m.y - y) ** 2;
    if (d < bestD) {
      bestD = d;
      best = p.id;
    }
  }
  return best;
}

/**
 * Where the canvas looks: its first viewport (on the leaf), centring on focus requests, fit (the
 * level-0 skeleton, whole), and the semantic zoom that changes level, keeping the node under the
 * pane's middle where it was.
 */
export function useCanvasView(
  model: GraphModel,
  lod: LodState,
  boxRef: RefObject<HTMLDivElement | null>,
  paneHeight: number,
) {
  const { lodView } = lod;
  const flow = useReactFlow();
  const [ready, setReady] = useState(false);
  const setCursor = useCanopy((s) => s.setCursor);
  const focusRequest = useCanopy((s) => s.focusRequest);
  const [initialViewport, setInitialViewport] = useState<Viewport | null>(null);
  /** A level change waiting for its layout: fit, or a semantic zoom keeping a node where it was. */
  const pending = useRef<{ fit: true } | { anchor: string; sx: number; sy: number } | null>(null);
  /** The viewport is a fit nobody moved since (centring, a drag or a zoom ends it). */
  const fitted = useRef(false);
  // The first viewport: on the node a focus request asks for (the leaf, on open), so the first
  // frame draws its neighbourhood rather than the root's.
  useLayoutEffect(() => {
    if (initialViewport || !lod.measured) return;
    const box = boxRef.current;
    const id = focusRequest?.nodeId;
    const drawn = id === undefined ? null : drawnOf(model, lodView, id);
    const p = drawn === null ? undefined : lodView.layout.placed.get(drawn);
    if (!box || !p) return setInitialViewport({ x: 40, y: 40, zoom: 1 });
    const mid = middleOf(p);
    setInitialViewport({ x: box.clientWidth / 2 - mid.x, y: box.clientHeight / 2 - mid.y, zoom: 1 });
  }, [initialViewport, focusRequest, model, lodView, boxRef, lod.measured]);

  const centerOn = useCallback(
    (id: string, opts: { zoom?: number; duration?: number } = {}) => {
      const p = lodView.layout.placed.get(id);
      if (!p) return false;
      fitted.current = false;
      const mid = middleOf(p);
      void flow.setCenter(mid.x, mid.y, {
        zoom: opts.zoom ?? Math.max(flow.getZoom(), 0.8),
        duration: opts.duration ?? 250,
      });
      return true;
    },
    [flow, lodView],
  );

  // Centre on whatever was asked for (leaf on open, a deep link, a search hit, a tip); an entry
  // inside a run or a cluster is pinned first, so it is drawn on its own.
  const handledSeq = useRef(0);
  useEffect(() => {
    if (!ready || !focusRequest || focusRequest.seq === handledSeq.current) return;
    const d = model.view.drawNodeOf(focusRequest.nodeId);
    if (!d) return;
    if (lodView.lod.ownerOf.get(d.id) !== d.id) return lod.pin([d.id]);
    if (centerOn(d.id, { zoom: Math.max(flow.getZoom(), 0.9) })) {
      handledSeq.current = focusRequest.seq;
      setCursor(d.id);
    }
  }, [ready, focusRequest, model, lodView, lod, centerOn, flow, setCursor]);

  const applyFit = useCallback(
    (lv: LodView) => {
      const box = boxRef.current;
      if (!box) return;
      const { width, height } = lv.layout;
      const pane = { width: box.clientWidth, height: box.clientHeight - 2 * FIT_MARGIN };
      // No padding: FIT_MARGIN is the margin, and level 0's rows were counted to fit at FIT_ZOOM.
      const v = fitViewport({ width, height: height + 1 }, pane, { padding: 0, minZoom: MIN_ZOOM, maxZoom: 1 });
      if (v) void flow.setViewport({ ...v, y: v.y + FIT_MARGIN }, { duration: 200 });
      fitted.current = true;
    },
    [flow, boxRef],
  );
  // Fitted and untouched since: a new skeleton (the pane resized as a banner came, a selection
  // pinned) is fitted again.
  useLayoutEffect(() => {
    if (fitted.current && lodView.level === 0 && !pending.current) applyFit(lodView);
  }, [lodView, paneHeight, applyFit]);

  // Level changes (fit, semantic zoom) re-place the viewport once the new level is laid out.
  useLayoutEffect(() => {
    const job = pending.current;
    if (!job) return;
    pending.current = null;
    if ('fit' in job) return applyFit(lodView);
    const owner = lodView.lod.ownerOf.get(job.anchor) ?? job.anchor;
    const p = lodView.layout.placed.get(owner);
    if (!p) return;
    const mid = middleOf(p);
    void flow.setViewport({ x: job.sx - mid.x, y: job.sy - mid.y, zoom: 1 });
  }, [lodView, flow, applyFit]);

  const fit = useCallback(() => {
    if (lod.bare) return applyFit(lodView);
    pending.current = { fit: true };
    lod.setLevel(0);
  }, [lod, lodView, applyFit]);

  const onMoveEnd = useCallback(
    (e: unknown, vp: Viewport) => {
      if (e) fitted.current = false; // the user moved (programmatic moves come without an event)
      const box = boxRef.current;
      if (!box) return;
      const up = vp.zoom >= ZOOM_IN_AT && lodView.level < lodView.finest;
      const down = vp.zoom <= ZOOM_OUT_AT && lodView.level > 0;
      if (!up && !down) return;
      const sx = box.clientWidth / 2;
      const sy = box.clientHeight / 2;
      const id = nearest(lodView, (sx - vp.x) / vp.zoom, (sy - vp.y) / vp.zoom);
      const node = id ? lodView.lod.nodes.get(id) : undefined;
      if (!node || !id) return;
      const m = middleOf(lodView.layout.placed.get(id)!);
      pending.current = { anchor: node.draws[0]!, sx: m.x * vp.zoom + vp.x, sy: m.y * vp.zoom + vp.y };
      lod.setLevel(lodView.level + (up ? 1 : -1));
    },
    [boxRef, lodView, lod],
  );

  return { ready, setReady, initialViewport, centerOn, fit, onMoveEnd };
}
