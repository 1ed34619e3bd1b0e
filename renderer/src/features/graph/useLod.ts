import { useCallback, useEffect, useMemo, useState } from 'react';
import { useCanopy } from '../../app-context';
import { FIT_ZOOM, rowsFitting } from './model/layout';
import { buildLodView, openingOf, pinsAfter, type LodView } from './model/lod-view';
import type { GraphModel } from './useGraphModel';

/** Pixels kept free above and below the level-0 skeleton at fit. */
export const FIT_MARGIN = 14;
const NONE: ReadonlySet<string> = new Set();
const UNMEASURED: LodView = {
  lod: { nodes: new Map(), roots: [], order: [], ownerOf: new Map(), lanes: 0, rows: 0 },
  layout: { placed: new Map(), order: [], width: 0, height: 0 },
  level: 0,
  finest: 0,
};

export interface LodState {
  lodView: LodView;
  /** null: the finest level (what a session opens at, around its leaf). */
  setLevel(level: number | null): void;
  /** Draw nodes to draw on their own from now on (a focus target, an opened run or cluster). */
  pin(drawIds: readonly string[]): void;
  /** At level 0 with nothing opened: fit changes nothing but the viewport. */
  bare: boolean;
  /** The pane has a size (until then nothing is laid out). */
  measured: boolean;
}

/**
 * The level of detail the canvas draws and what the user opened, kept per session: the rows a
 * pane fits at zoom 1 are level 0's budget; each level doubles it.
 */
export function useLod(model: GraphModel, paneHeight: number): LodState {
  const { view, graph } = model;
  const [level, setLevel] = useState<number | null>(null);
  const [pins, setPins] = useState<ReadonlySet<string>>(NONE);
  const selectedId = useCanopy((s) => s.selectedEntryId);
  useEffect(() => {
    setLevel(null);
    setPins(NONE);
  }, [graph.sessionId]);
  const rowsFit = rowsFitting(Math.max(200, (paneHeight || 640) - 2 * FIT_MARGIN), FIT_ZOOM);
  const measured = paneHeight > 0;
  // Until the user changes level: the opening level, the leaf's neighbourhood pinned.
  const opening = useMemo(
    () => (level === null ? openingOf(view, graph.leafId, rowsFit) : null),
    [level, view, graph.leafId, rowsFit],
  );
  const selectedDraw = selectedId ? (view.drawNodeOf(selectedId)?.id ?? null) : null;
  const pinned = useMemo(() => {
    const extra = [...(opening?.pins ?? []), ...(selectedDraw === null ? [] : [selectedDraw])];
    return extra.every((id) => pins.has(id)) ? pins : new Set([...pins, ...extra]);
  }, [pins, selectedDraw, opening]);
  // Not before the pane is measured: its height sets the budget, and the first frame is built once.
  const lodView = useMemo(
    () => (measured ? buildLodView(view, graph, { level: level ?? opening?.level ?? 0, rowsFit, pinned }) : UNMEASURED),
    [measured, view, graph, level, opening, rowsFit, pinned],
  );
  const pin = useCallback(
    (ids: readonly string[]) =>
      setPins((prev) => (ids.every((id) => prev.has(id)) ? prev : new Set([...prev, ...ids]))),
    [],
  );
  const changeLevel = useCallback(
    (next: number | null) => {
      setPins((prev) => pinsAfter(prev, opening, lodView.level, next));
      setLevel(next);
    },
    [opening, lodView.level],
  );
  // Whether fit changes nothing (already the bare skeleton): then it only moves the viewport.
  const bare = lodView.level === 0 && level !== null && pins.size === 0;
  return { lodView, setLevel: changeLevel, pin, bare, measured };
}
