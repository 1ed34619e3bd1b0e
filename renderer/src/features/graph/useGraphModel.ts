import { useMemo } from 'react';
import { useCanopy } from '../../app-context';
import type { LineageLinkDto, SessionGraphDto } from '../../lib/shared';
import { statesById, type ContextStates } from '../../model/context-order';
import { lineageMarkers } from '../../model/lineage-model';
import { searchEntries } from './model/search';
import { treeIndexOf, type TreeIndex } from '../../model/tree-index';
import { buildGraphView, type GraphView } from './model/view';

export interface GraphModel {
  graph: SessionGraphDto;
  index: TreeIndex;
  view: GraphView;
  hits: string[];
  hitSet: ReadonlySet<string>;
  /** Context state per entry id (null while the view loads or when shading is off). */
  context: ContextStates | null;
  forksAt: ReadonlyMap<string, LineageLinkDto[]>;
  parentAt: { entryId: string; link: LineageLinkDto } | null;
}

/** The memoised pipeline: index (per graph) → filter → collapse → layout (per settings) → search. */
/**
 * `?naive=1` in the page address draws every entry (no chain collapsing). Only the rendering
 * benchmark (bench/render.mjs) uses it, as the baseline collapsing is measured against.
 */
const NAIVE: { collapse?: { budget: number } } =
  typeof location !== 'undefined' && new URLSearchParams(location.search).get('naive') === '1'
    ? { collapse: { budget: Number.POSITIVE_INFINITY } }
    : {};

export function useGraphModel(): GraphModel | null {
  const graph = useCanopy((s) => s.graph);
  const filterMode = useCanopy((s) => s.filterMode);
  const showLeafRecords = useCanopy((s) => s.showLeafRecords);
  const expandedChains = useCanopy((s) => s.expandedChains);
  const selectedId = useCanopy((s) => s.selectedEntryId);
  const query = useCanopy((s) => s.graphQuery);
  const contextView = useCanopy((s) => s.contextView);
  const shade = useCanopy((s) => s.shadeContext);
  const lineage = useCanopy((s) => s.lineage);
  const whatIfLeaf = useCanopy((s) => s.whatIfLeaf?.entryId ?? null);

  const index = useMemo(() => (graph ? treeIndexOf(graph) : null), [graph]);
  const expanded = useMemo(() => new Set(Object.keys(expandedChains)), [expandedChains]);
  const markers = useMemo(() => lineageMarkers(lineage), [lineage]);
  // Fork points and the what-if leaf are drawn on their own so their markers can be seen.
  const pinned = useMemo(() => {
    const out = new Set<string>(markers.forksAt.keys());
    if (markers.parentAt) out.add(markers.parentAt.entryId);
    if (whatIfLeaf) out.add(whatIfLeaf);
    return out;
  }, [markers, whatIfLeaf]);
  // The selection only changes the drawing when it is not yet drawn on its own.
  const view = useMemo(
    () => (graph && index ? buildGraphView(graph, index, { filterMode, showLeafRecords, expanded, selectedId, pinned, ...NAIVE }) : null),
    [graph, index, filterMode, showLeafRecords, expanded, selectedId, pinned],
  );
  const hits = useMemo(() => (index ? searchEntries(index, query) : []), [index, query]);
  const hitSet = useMemo(() => new Set(hits), [hits]);
  const context = useMemo(
    () => (shade && contextView && graph && index && contextView.sessionId === graph.sessionId ? statesById(contextView, index) : null),
    [shade, contextView, graph, index],
  );
  if (!graph || !index || !view) return null;
  return { graph, index, view, hits, hitSet, context, forksAt: markers.forksAt, parentAt: markers.parentAt };
}
