import { useReactFlow } from '@xyflow/react';
import { useEffect, useRef } from 'react';
import { useCanopy } from '../../app-context';
import type { LodView } from './model/lod-view';
import type { GraphModel } from './useGraphModel';

/**
 * What else moves the viewport: highlight requests (a compaction's hidden span brought into
 * view), fit requests from the toolbar or palette, and a filter change (which lays the tree out
 * anew: the selection or the leaf is kept in view).
 */
export function useFocusSideEffects(model: GraphModel, lodView: LodView, canvas: { ready: boolean; fit(): void }) {
  const { graph, view } = model;
  const flow = useReactFlow();
  const highlight = useCanopy((s) => s.highlight);
  const handledHighlight = useRef(0);
  const { ready, fit } = canvas;
  useEffect(() => {
    if (!ready || !highlight || highlight.seq === handledHighlight.current) return;
    handledHighlight.current = highlight.seq;
    const ids = new Set<string>();
    for (const id of highlight.ids) {
      const d = view.drawNodeOf(id);
      const owner = d ? lodView.lod.ownerOf.get(d.id) : undefined;
      if (owner) ids.add(owner);
    }
    if (ids.size > 0)
      void flow.fitView({ nodes: [...ids].map((id) => ({ id })), padding: 0.2, duration: 300, maxZoom: 1 });
  }, [ready, highlight, view, lodView, flow]);

  const fitRequest = useCanopy((s) => s.fitRequest);
  const handledFit = useRef(fitRequest);
  useEffect(() => {
    if (!ready || fitRequest === handledFit.current) return;
    handledFit.current = fitRequest;
    fit();
  }, [ready, fitRequest, fit]);

  const selectedId = useCanopy((s) => s.selectedEntryId);
  const requestFocus = useCanopy((s) => s.requestFocus);
  const filterMode = useCanopy((s) => s.filterMode);
  const showLeafRecords = useCanopy((s) => s.showLeafRecords);
  const filterKey = `${filterMode}/${showLeafRecords}`;
  const lastFilter = useRef(filterKey);
  useEffect(() => {
    if (lastFilter.current === filterKey) return;
    lastFilter.current = filterKey;
    const id = selectedId ?? graph.leafId ?? view.drawTree.roots[0];
    if (id) requestFocus(id);
  }, [filterKey, selectedId, graph.leafId, view, requestFocus]);
}
