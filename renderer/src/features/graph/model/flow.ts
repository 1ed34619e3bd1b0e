import { Position, type Node, type NodeHandle } from '@xyflow/react';
import type { EntryContextStateDto, EntryNodeDto, EntryStateDto, LineageLinkDto } from '../../../lib/shared';
import type { NodeComponentKind } from '../../../model/kinds';
import { NODE_HEIGHT, NODE_WIDTH } from './layout';
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
  tips: number;
  compactions: number;
}

export interface ClusterNodeData extends Record<string, unknown> {
  branches: number;
  entries: number;
  tips: number;
  compactions: number;
  /** The first user prompt of its first branch: what the branch is about. */
  firstPrompt: string;
  isCursor: boolean;
  matches: number;
  highlighted: number;
}

export type EntryFlowNode = Node<EntryNodeData, Exclude<NodeComponentKind, 'chain'>>;
export type ChainFlowNode = Node<ChainNodeData, 'chain'>;
export type ClusterFlowNode = Node<ClusterNodeData, 'cluster'>;
export type FlowNode = EntryFlowNode | ChainFlowNode | ClusterFlowNode;

export interface FlowUi {
  cursorId: string | null;
  selectedId: string | null;
  matches: ReadonlySet<string>;
  context?: ContextStates | null;
  whatIfLeafId?: string | null;
  /** Entries on the what-if leaf's path (drawn as clearly as the active path). */
  whatIfPath?: ReadonlySet<string>;
  highlight?: ReadonlySet<string>;
  /** Entry id → child sessions forked there. */
  forksAt?: ReadonlyMap<string, LineageLinkDto[]>;
  /** Where this session left its parent. */
  parentAt?: { entryId: string; link: LineageLinkDto } | null;
}

/**
 * Where the node components draw their (invisible) handles, as react-flow measures them: 5 px
 * squares centred on the top, right and bottom edges. Declared up front, react-flow need not render
 * every node once to measure it, so only the nodes in view are ever drawn (`onlyRenderVisibleElements`).
 */
const HANDLE = 5;
/** Where side-lane edges meet a node's edge (below the middle, apart from the first-kept link). */
export const SIDE_Y = Math.round(NODE_HEIGHT * 0.7);
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
  // A fork into a side lane leaves from the right and enters from the left, on the same row.
  handle('sr', 'source', Position.Right, NODE_WIDTH, SIDE_Y),
  handle('tl', 'target', Position.Left, 0, SIDE_Y),
];
/** A compaction that keeps older entries also links to its first kept entry from its right edge. */
export const KEPT_HANDLES: NodeHandle[] = [
  ...BASE_HANDLES,
  handle('ks', 'source', Position.Right, NODE_WIDTH, NODE_HEIGHT / 2),
];

export function attrs(values: Record<string, string | undefined>): Node['domAttributes'] {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) if (v !== undefined) out[k] = v;
  return out as Node['domAttributes'];
}
