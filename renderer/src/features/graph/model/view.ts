import type { SessionGraphDto } from '../../../lib/shared';
import {
  collapseChains,
  DEFAULT_COLLAPSE,
  drawNodeOf,
  membersOf,
  type CollapseOptions,
  type DrawNode,
  type DrawTree,
} from './collapse';
import { filterTree, type FilterMode, type VisibleTree } from '../../../model/filters';
import { dataKind } from '../../../model/kinds';
import type { TreeIndex } from '../../../model/tree-index';

export interface ViewOptions {
  filterMode: FilterMode;
  showLeafRecords: boolean;
  expanded: ReadonlySet<string>;
  selectedId: string | null;
  /** Entries always drawn on their own, whatever the filter (fork points, the what-if leaf). */
  pinned?: ReadonlySet<string>;
  collapse?: Partial<Omit<CollapseOptions, 'keep' | 'expanded'>>;
}

/** Everything the canvas needs, computed purely from the session graph and the view settings. */
export interface GraphView {
  index: TreeIndex;
  visible: VisibleTree;
  drawTree: DrawTree;
  /** Per entry index: on the profile's active path (SessionGraphDto.pathIds). */
  onPath: Uint8Array;
  /** Per entry index: a leaf ancestor the profile's path does not reach (H3 stopped at a checkpoint). */
  beyondCheckpoint: Uint8Array;
  /** Draw-node ids that hold at least one active-path entry. */
  drawOnPath: Set<string>;
  /** Chain id → member counts by data-kind, most frequent first. */
  chainKinds: Map<string, Array<[string, number]>>;
  /** The draw node showing an entry; hidden entries map to their nearest drawn ancestor. */
  drawNodeOf(entryId: string): DrawNode | null;
  stats: { entries: number; visible: number; hidden: number; drawn: number };
}

export function buildGraphView(graph: SessionGraphDto, index: TreeIndex, opts: ViewOptions): GraphView {
  const n = index.size;
  const onPath = new Uint8Array(n);
  for (const id of graph.pathIds) {
    const i = index.indexOf.get(id);
    if (i !== undefined) onPath[i] = 1;
  }
  const beyondCheckpoint = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (index.onLeafBranch[i] && !onPath[i]) beyondCheckpoint[i] = 1;

  const force = new Set<string>();
  if (opts.selectedId) force.add(opts.selectedId);
  if (opts.pinned) for (const id of opts.pinned) if (index.indexOf.has(id)) force.add(id);
  if (index.leaf !== -1) force.add(index.ids[index.leaf]!);
  const visible = filterTree(index, {
    mode: opts.filterMode,
    showLeafRecords: opts.showLeafRecords,
    leafId: index.leaf === -1 ? null : index.ids[index.leaf]!,
    labels: graph.labels,
    forceVisible: force,
  });

  // Entries that must stay individual: compactions and their first kept entries, labels, forced ones.
  const keep = new Uint8Array(n);
  for (const id of force) {
    const i = index.indexOf.get(id);
    if (i !== undefined) keep[i] = 1;
  }
  for (const id of Object.keys(graph.labels)) {
    const i = index.indexOf.get(id);
    if (i !== undefined) keep[i] = 1;
  }
  for (let i = 0; i < n; i++) {
    const e = index.entries[i]!;
    if (e.type !== 'compaction') continue;
    keep[i] = 1;
    const k = e.firstKeptEntryId ? index.indexOf.get(e.firstKeptEntryId) : undefined;
    if (k !== undefined) keep[k] = 1;
  }

  const drawTree = collapseChains(visible, { ...DEFAULT_COLLAPSE, ...opts.collapse, keep, expanded: opts.expanded });

  const drawOnPath = new Set<string>();
  const chainKinds = new Map<string, Array<[string, number]>>();
  for (const node of drawTree.nodes.values()) {
    const members = membersOf(drawTree, node);
    let counts: Map<string, number> | null = node.kind === 'chain' ? new Map() : null;
    for (const m of members) {
      if (onPath[m]) drawOnPath.add(node.id);
      if (counts) {
        const k = dataKind(index.entries[m]!);
        counts.set(k, (counts.get(k) ?? 0) + 1);
      }
    }
    if (counts)
      chainKinds.set(
        node.id,
        [...counts].sort((a, b) => b[1] - a[1]),
      );
    counts = null;
  }

  return {
    index,
    visible,
    drawTree,
    onPath,
    beyondCheckpoint,
    drawOnPath,
    chainKinds,
    drawNodeOf: (entryId) => drawNodeOf(drawTree, entryId),
    stats: { entries: n, visible: visible.vorder.length, hidden: visible.hiddenCount, drawn: drawTree.nodes.size },
  };
}
