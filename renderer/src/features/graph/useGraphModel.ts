import { useMemo } from 'react';
import { useCanopy } from '../../app-context';
import type { SessionGraphDto } from '../../lib/shared';
import { searchEntries } from './model/search';
import { buildTreeIndex, type TreeIndex } from './model/tree-index';
import { buildGraphView, type GraphView } from './model/view';

export interface GraphModel {
  graph: SessionGraphDto;
  index: TreeIndex;
  view: GraphView;
  hits: string[];
  hitSet: ReadonlySet<string>;
}

/** The memoised pipeline: index (per graph) → filter → collapse → layout (per settings) → search. */
export function useGraphModel(): GraphModel | null {
  const graph = useCanopy((s) => s.graph);
  const filterMode = useCanopy((s) => s.filterMode);
  const showLeafRecords = useCanopy((s) => s.showLeafRecords);
  const expandedChains = useCanopy((s) => s.expandedChains);
  const selectedId = useCanopy((s) => s.selectedEntryId);
  const query = useCanopy((s) => s.graphQuery);

  const index = useMemo(() => (graph ? buildTreeIndex(graph.entries, graph.leafId) : null), [graph]);
  const expanded = useMemo(() => new Set(Object.keys(expandedChains)), [expandedChains]);
  // The selection only changes the drawing when it is not yet drawn on its own.
  const view = useMemo(
    () => (graph && index ? buildGraphView(graph, index, { filterMode, showLeafRecords, expanded, selectedId }) : null),
    [graph, index, filterMode, showLeafRecords, expanded, selectedId],
  );
  const hits = useMemo(() => (index ? searchEntries(index, query) : []), [index, query]);
  const hitSet = useMemo(() => new Set(hits), [hits]);
  if (!graph || !index || !view) return null;
  return { graph, index, view, hits, hitSet };
}
