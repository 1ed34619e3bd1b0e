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
const PARAMS = typeof location !== 'undefined' ? new URLSearchParams(location.search) : new URLSearchParams();
const NAIVE: { collapse?: { budget: number } } =
  PARAMS.get('naive') === '1' ? { collapse: { budget: Number.POSITIVE_INFINITY } } : {};

/** `?marks=1` (the benchmark's click case): the pipeline's steps as performance measures `canopy:<step>`. */
function timed<T>(step: string, run: () => T): T {
  if (PARAMS.get('marks') !== '1') return run();
  const start = performance.now();
  const out = run();
  performance.measure(`canopy:${step}`, { start, end: performance.now() });
  return out;
}

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

  const index = useMemo(() => {
    if (!graph) return null;
    if (PARAMS.get('marks') === '1') performance.mark('canopy:graph');
    return timed('index', () => treeIndexOf(graph));
  }, [graph]);
  const expanded = useMemo(() => new Set(Object.keys(expandedChains)), [expandedChains]);
  const markers = useMemo(() => lineageMarkers(lineage), [lineage]);
  // Fork points and the what-if leaf are drawn on their own so their markers can be seen. Keyed by
  // content: the lineage arriving after the first frame with no fork in it must not lay out anew.
  const pinnedKey = [...markers.forksAt.keys(), markers.parentAt?.entryId ?? '', whatIfLeaf ?? ''].join('\n');
  const pinned = useMemo(() => new Set(pinnedKey.split('\n').filter(Boolean)), [pinnedKey]);
  // The selection only changes the drawing when it is not yet drawn on its own.
  const view = useMemo(
    () =>
      graph && index
        ? timed('view', () =>
            buildGraphView(graph, index, { filterMode, showLeafRecords, expanded, selectedId, pinned, ...NAIVE }),
          )
        : null,
    [graph, index, filterMode, showLeafRecords, expanded, selectedId, pinned],
  );
  const hits = useMemo(() => (index ? searchEntries(index, query) : []), [index, query]);
  const hitSet = useMemo(() => new Set(hits), [hits]);
  const context = useMemo(
    () =>
      shade && contextView && graph && index && contextView.sessionId === graph.sessionId
        ? statesById(contextView, index)
        : null,
    [shade, contextView, graph, index],
  );
  if (!graph || !index || !view) return null;
  return { graph, index, view, hits, hitSet, context, forksAt: markers.forksAt, parentAt: markers.parentAt };
}
