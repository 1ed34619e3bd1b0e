import { useReactFlow } from '@xyflow/react';
import { useCallback, useEffect, useRef, type KeyboardEvent } from 'react';
import { useActions, useCanopy } from '../../app-context';
import { isNavKey, navigate } from './model/navigate';
import { drawnOf } from './useCanvasView';
import type { LodState } from './useLod';
import type { GraphModel } from './useGraphModel';

/** Arrow moves select the entry under the cursor once the keys have rested this long. */
const CURSOR_SELECT_MS = 150;

/**
 * Clicks and keys on drawn nodes: an entry is selected; a collapsed run expands (a page at a
 * time); a run or cluster of this level is opened (its nodes drawn on their own).
 */
export function useCanvasKeys(
  model: GraphModel,
  lod: LodState,
  centerOn: (id: string, opts?: { duration?: number }) => boolean,
) {
  const { view, graph } = model;
  const { lodView } = lod;
  const actions = useActions();
  const flow = useReactFlow();
  const cursorId = useCanopy((s) => s.cursorId);
  const setCursor = useCanopy((s) => s.setCursor);
  const selectedId = useCanopy((s) => s.selectedEntryId);
  const expandChain = useCanopy((s) => s.expandChain);

  const activate = useCallback(
    (id: string) => {
      const node = lodView.lod.nodes.get(id);
      if (!node) return;
      if (node.kind === 'entry') {
        setCursor(id);
        actions.selectEntry(id);
      } else if (node.kind === 'chain' && node.draws.length === 1) {
        const firstId = view.index.ids[view.drawTree.nodes.get(id)!.first]!;
        expandChain(firstId);
        setCursor(firstId);
      } else {
        lod.pin(node.draws);
        setCursor(node.draws[0]!);
      }
    },
    [lodView, view, expandChain, setCursor, actions, lod],
  );

  const selectTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (selectTimer.current && clearTimeout(selectTimer.current)), []);
  // The cursor now, for a cursor-follow that fires later: a selection made since is not undone.
  const cursorNow = useRef(cursorId);
  cursorNow.current = cursorId;
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const t = e.target;
    if (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement) return;
    const tree = lodView.lod;
    const start =
      cursorId && tree.nodes.has(cursorId)
        ? cursorId
        : (drawnOf(model, lodView, selectedId ?? graph.leafId ?? '') ?? tree.roots[0] ?? null);
    if (isNavKey(e.key)) {
      e.preventDefault();
      const next = navigate(tree, start, e.key);
      if (!next) return;
      setCursor(next);
      centerOn(next, { duration: 120 });
      // The inspector follows the cursor without Enter, once the keys rest (one read, not one per step).
      if (selectTimer.current) clearTimeout(selectTimer.current);
      if (tree.nodes.get(next)?.kind === 'entry')
        selectTimer.current = setTimeout(() => {
          if (cursorNow.current === next) actions.selectEntry(next);
        }, CURSOR_SELECT_MS);
    } else if (e.key === 'Enter' && start) {
      e.preventDefault();
      if (selectTimer.current) clearTimeout(selectTimer.current);
      activate(start);
    } else if (e.key === '+' || e.key === '=' || e.key === '-') {
      // Zoom by keyboard: past a threshold the level of detail changes (useCanvasView's onMoveEnd).
      e.preventDefault();
      void (e.key === '-' ? flow.zoomOut({ duration: 150 }) : flow.zoomIn({ duration: 150 }));
    } else if (e.key === 'Escape') {
      if (selectTimer.current) clearTimeout(selectTimer.current);
      actions.selectEntry(null);
    }
  };
  return { activate, onKeyDown };
}
