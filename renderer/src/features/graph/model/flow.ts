import { MarkerType, Position, type Edge, type Node, type NodeHandle } from '@xyflow/react';
import type {
  EntryContextStateDto,
  EntryNodeDto,
  EntryStateDto,
  LineageLinkDto,
  SessionGraphDto,
} from '../../../lib/shared';
import { componentKind, dataKind, type NodeComponentKind } from '../../../model/kinds';
import { NODE_HEIGHT, NODE_WIDTH } from './layout';
import { membersOf } from './collapse';
import type { GraphView } from './view';
import type { ContextStates } from '../../../model/context-order';

export interface EntryNodeData extends Record<string, unknown> {
  entry: EntryNodeDto;
  label: string | null;
  onPath: boolean;
  beyondCheckpoint: boolean;
  isLeaf: boolean;
  isSelected: boolean;
  isCursor: boolean;
  isMatch: boolean;
  /** Something between this entry and its drawn parent is hidden by the filter. */
  spliced: boolean;
  /** Its state in the context view (null when shading is off or the view is not loaded). */
  context: EntryContextStateDto | null;
  isWhatIfLeaf: boolean;
  isHighlighted: boolean;
  /** Sessions forked from this entry (this session is their parent). */
  forks: LineageLinkDto[];
  /** This session was forked from its parent here. */
  parentFork: LineageLinkDto | null;
}

export interface ChainNodeData extends Record<string, unknown> {
  count: number;
  first: EntryNodeDto;
  last: EntryNodeDto;
  /** Member counts by data-kind, most frequent first. */
  kinds: Array<[string, number]>;
  onPath: boolean;
  isCursor: boolean;
  matches: number;
  /** Member counts by context state (most first); empty when shading is off. */
  contextMix: Array<[EntryStateDto, number]>;
  highlighted: number;
}

export type EntryFlowNode = Node<EntryNodeData, Exclude<NodeComponentKind, 'chain'>>;
export type ChainFlowNode = Node<ChainNodeData, 'chain'>;
export type FlowNode = EntryFlowNode | ChainFlowNode;

export interface FlowUi {
  cursorId: string | null;
  selectedId: string | null;
  matches: ReadonlySet<string>;
  context?: ContextStates | null;
  whatIfLeafId?: string | null;
  highlight?: ReadonlySet<string>;
  /** Entry id → child sessions forked there. */
  forksAt?: ReadonlyMap<string, LineageLinkDto[]>;
  /** Where this session left its parent. */
  parentAt?: { entryId: string; link: LineageLinkDto } | null;
}

const NO_FORKS: LineageLinkDto[] = [];

/**
 * Where the node components draw their (invisible) handles, as react-flow measures them: 5 px
 * squares centred on the top, right and bottom edges. Declared up front, react-flow need not render
 * every node once to measure it, so only the nodes in view are ever drawn (`onlyRenderVisibleElements`).
 */
const HANDLE = 5;
const handle = (id: string, type: 'source' | 'target', position: Position, x: number, y: number): NodeHandle => ({
  id,
  type,
  position,
  x: x - HANDLE / 2,
  y: y - HANDLE / 2,
  width: HANDLE,
  height: HANDLE,
});
export const BASE_HANDLES: NodeHandle[] = [
  handle('t', 'target', Position.Top, NODE_WIDTH / 2, 0),
  handle('kt', 'target', Position.Right, NODE_WIDTH, NODE_HEIGHT / 2),
  handle('s', 'source', Position.Bottom, NODE_WIDTH / 2, NODE_HEIGHT),
];
/** A compaction that keeps older entries also links to its first kept entry from its right edge. */
export const KEPT_HANDLES: NodeHandle[] = [
  ...BASE_HANDLES,
  handle('ks', 'source', Position.Right, NODE_WIDTH, NODE_HEIGHT / 2),
];

function attrs(values: Record<string, string | undefined>): Node['domAttributes'] {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) if (v !== undefined) out[k] = v;
  return out as Node['domAttributes'];
}

export function toFlowNodes(view: GraphView, graph: SessionGraphDto, ui: FlowUi): FlowNode[] {
  const { index } = view;
  const out: FlowNode[] = [];
  for (const id of view.layout.order) {
    const draw = view.drawTree.nodes.get(id)!;
    const pos = view.layout.placed.get(id)!;
    const onPath = view.drawOnPath.has(id);
    if (draw.kind === 'chain') {
      const members = membersOf(view.drawTree, draw);
      let matches = 0;
      let highlighted = 0;
      const mix = new Map<EntryStateDto, number>();
      for (const m of members) {
        const memberId = index.ids[m]!;
        if (ui.matches.has(memberId)) matches++;
        if (ui.highlight?.has(memberId)) highlighted++;
        const state = ui.context?.stateOf(memberId);
        if (state) mix.set(state, (mix.get(state) ?? 0) + 1);
      }
      const contextMix = [...mix].sort((a, b) => b[1] - a[1]);
      const uniform = contextMix.length === 1 && contextMix[0]![1] === members.length ? contextMix[0]![0] : undefined;
      out.push({
        id,
        type: 'chain',
        position: { x: pos.x, y: pos.y },
        width: NODE_WIDTH,
        height: NODE_HEIGHT,
        handles: BASE_HANDLES,
        draggable: false,
        connectable: false,
        ariaLabel: `${draw.count} collapsed entries`,
        domAttributes: attrs({
          'data-kind': 'chain',
          'data-on-path': onPath ? 'true' : undefined,
          'data-context': uniform,
          'data-highlight': highlighted > 0 ? 'true' : undefined,
        }),
        data: {
          count: draw.count,
          first: index.entries[members[0]!]!,
          last: index.entries[members[members.length - 1]!]!,
          kinds: view.chainKinds.get(id) ?? [],
          onPath,
          isCursor: ui.cursorId === id,
          matches,
          contextMix,
          highlighted,
        },
      });
      continue;
    }
    const i = draw.first;
    const entry = index.entries[i]!;
    const checkpoint =
      entry.type === 'compaction' && entry.checkpoint && entry.checkpoint !== 'none' ? entry.checkpoint : undefined;
    const context = ui.context?.get(id) ?? null;
    const isWhatIfLeaf = ui.whatIfLeafId === id;
    const isHighlighted = ui.highlight?.has(id) ?? false;
    const parentFork = ui.parentAt?.entryId === id ? ui.parentAt.link : null;
    const kind = componentKind(entry) as Exclude<NodeComponentKind, 'chain'>;
    out.push({
      id,
      type: kind,
      position: { x: pos.x, y: pos.y },
      width: NODE_WIDTH,
      height: NODE_HEIGHT,
      handles: kind === 'compaction' && entry.checkpoint === 'first-kept' ? KEPT_HANDLES : BASE_HANDLES,
      draggable: false,
      connectable: false,
      ariaLabel: `${dataKind(entry)} ${id}`,
      domAttributes: attrs({
        'data-kind': dataKind(entry),
        'data-on-path': onPath ? 'true' : undefined,
        'data-checkpoint': checkpoint,
        'data-leaf': id === graph.leafId ? 'true' : undefined,
        'data-match': ui.matches.has(id) ? 'true' : undefined,
        'data-context': context?.state,
        'data-what-if-leaf': isWhatIfLeaf ? 'true' : undefined,
        'data-highlight': isHighlighted ? 'true' : undefined,
      }),
      data: {
        entry,
        label: graph.labels[id] ?? null,
        onPath,
        beyondCheckpoint: view.beyondCheckpoint[i] === 1,
        isLeaf: id === graph.leafId,
        isSelected: id === ui.selectedId,
        isCursor: id === ui.cursorId,
        isMatch: ui.matches.has(id),
        spliced: view.visible.spliced[i] === 1,
        context,
        isWhatIfLeaf,
        isHighlighted,
        forks: ui.forksAt?.get(id) ?? NO_FORKS,
        parentFork,
      },
    });
  }
  return out;
}

export function toFlowEdges(view: GraphView): Edge[] {
  const { index } = view;
  const edges: Edge[] = [];
  for (const draw of view.drawTree.nodes.values()) {
    if (draw.parent === null) continue;
    const first = draw.first;
    const onPath = view.drawOnPath.has(draw.parent) && view.drawOnPath.has(draw.id);
    const entry = index.entries[first]!;
    const selfContained = entry.type === 'compaction' && entry.checkpoint === 'retained-tail';
    const classes = [
      onPath ? 'on-path' : '',
      view.visible.spliced[first] ? 'spliced' : '',
      selfContained ? 'checkpoint-cut' : '',
      !onPath && view.beyondCheckpoint[first] ? 'beyond-checkpoint' : '',
    ].filter(Boolean);
    edges.push({
      id: `e:${draw.parent}->${draw.id}`,
      source: draw.parent,
      target: draw.id,
      sourceHandle: 's',
      targetHandle: 't',
      type: 'smoothstep',
      className: classes.join(' ') || undefined,
      zIndex: onPath ? 1 : 0,
      focusable: false,
      selectable: false,
    });
  }
  // Compaction → first kept entry: the older context a firstKeptEntryId checkpoint still keeps.
  for (const draw of view.drawTree.nodes.values()) {
    if (draw.kind !== 'entry') continue;
    const entry = index.entries[draw.first]!;
    if (entry.type !== 'compaction' || entry.checkpoint !== 'first-kept' || !entry.firstKeptEntryId) continue;
    const target = view.drawNodeOf(entry.firstKeptEntryId)?.id;
    if (!target || target === draw.id) continue;
    edges.push({
      id: `k:${draw.id}->${target}`,
      source: draw.id,
      target,
      sourceHandle: 'ks',
      targetHandle: 'kt',
      type: 'default',
      className: 'first-kept-edge',
      label: 'first kept',
      markerEnd: { type: MarkerType.ArrowClosed, width: 14, height: 14 },
      zIndex: 2,
      focusable: false,
      selectable: false,
    });
  }
  return edges;
}
