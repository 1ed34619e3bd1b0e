import { MarkerType, type Edge, type Node } from '@xyflow/react';
import type { EntryNodeDto, SessionGraphDto } from '../../../lib/shared';
import { componentKind, dataKind, type NodeComponentKind } from './kinds';
import { NODE_HEIGHT, NODE_WIDTH } from './layout';
import { membersOf } from './collapse';
import type { GraphView } from './view';

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
}

export type EntryFlowNode = Node<EntryNodeData, Exclude<NodeComponentKind, 'chain'>>;
export type ChainFlowNode = Node<ChainNodeData, 'chain'>;
export type FlowNode = EntryFlowNode | ChainFlowNode;

export interface FlowUi {
  cursorId: string | null;
  selectedId: string | null;
  matches: ReadonlySet<string>;
}

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
      let matches = 0;
      if (ui.matches.size > 0) for (const m of membersOf(view.drawTree, draw)) if (ui.matches.has(index.ids[m]!)) matches++;
      const members = membersOf(view.drawTree, draw);
      out.push({
        id,
        type: 'chain',
        position: { x: pos.x, y: pos.y },
        width: NODE_WIDTH,
        height: NODE_HEIGHT,
        draggable: false,
        connectable: false,
        ariaLabel: `${draw.count} collapsed entries`,
        domAttributes: attrs({ 'data-kind': 'chain', 'data-on-path': onPath ? 'true' : undefined }),
        data: {
          count: draw.count,
          first: index.entries[members[0]!]!,
          last: index.entries[members[members.length - 1]!]!,
          kinds: view.chainKinds.get(id) ?? [],
          onPath,
          isCursor: ui.cursorId === id,
          matches,
        },
      });
      continue;
    }
    const i = draw.first;
    const entry = index.entries[i]!;
    const checkpoint = entry.type === 'compaction' && entry.checkpoint && entry.checkpoint !== 'none' ? entry.checkpoint : undefined;
    out.push({
      id,
      type: componentKind(entry) as Exclude<NodeComponentKind, 'chain'>,
      position: { x: pos.x, y: pos.y },
      width: NODE_WIDTH,
      height: NODE_HEIGHT,
      draggable: false,
      connectable: false,
      ariaLabel: `${dataKind(entry)} ${id}`,
      domAttributes: attrs({
        'data-kind': dataKind(entry),
        'data-on-path': onPath ? 'true' : undefined,
        'data-checkpoint': checkpoint,
        'data-leaf': id === graph.leafId ? 'true' : undefined,
        'data-match': ui.matches.has(id) ? 'true' : undefined,
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
