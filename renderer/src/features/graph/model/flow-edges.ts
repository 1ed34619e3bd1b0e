import { MarkerType, type Edge } from '@xyflow/react';
import type { LodView } from './lod-view';
import type { GraphView } from './view';

/** Tree edges between drawn nodes (down a lane, or across into a side lane), and first-kept links. */
export function toFlowEdges(view: GraphView, lod: LodView, whatIfPath?: ReadonlySet<string>): Edge[] {
  const { index } = view;
  const edges: Edge[] = [];
  const nodes = lod.lod.nodes;
  const onPath = (id: string) => nodes.get(id)!.draws.some((d) => view.drawOnPath.has(d));
  const onWhatIf = (id: string) => !!whatIfPath && nodes.get(id)!.draws.some((d) => whatIfPath.has(d));
  for (const id of lod.layout.order) {
    const n = nodes.get(id)!;
    if (n.parent === null) continue;
    const parent = nodes.get(n.parent)!;
    const first = view.drawTree.nodes.get(n.draws[0]!)!.first;
    const path = onPath(n.parent) && onPath(id);
    const whatIf = !path && onWhatIf(n.parent) && onWhatIf(id);
    const entry = index.entries[first]!;
    const selfContained = n.kind === 'entry' && entry.type === 'compaction' && entry.checkpoint === 'retained-tail';
    const classes = [
      path ? 'on-path' : '',
      whatIf ? 'what-if-path' : '',
      view.visible.spliced[first] ? 'spliced' : '',
      selfContained ? 'checkpoint-cut' : '',
      !path && view.beyondCheckpoint[first] ? 'beyond-checkpoint' : '',
    ].filter(Boolean);
    const across = parent.row === n.row;
    edges.push({
      id: `e:${n.parent}->${id}`,
      source: n.parent,
      target: id,
      sourceHandle: across ? 'sr' : 's',
      targetHandle: across ? 'tl' : 't',
      // Lanes make every tree edge straight: down a lane, or across to a side lane on the same row.
      type: 'straight',
      className: classes.join(' ') || undefined,
      zIndex: path || whatIf ? 1 : 0,
      focusable: false,
      selectable: false,
    });
  }
  // Compaction → first kept entry: the older context a firstKeptEntryId checkpoint still keeps.
  for (const n of nodes.values()) {
    if (n.kind !== 'entry') continue;
    const entry = index.entries[view.drawTree.nodes.get(n.id)!.first]!;
    if (entry.type !== 'compaction' || entry.checkpoint !== 'first-kept' || !entry.firstKeptEntryId) continue;
    const d = view.drawNodeOf(entry.firstKeptEntryId)?.id;
    const target = d ? lod.lod.ownerOf.get(d) : undefined;
    if (!target || target === n.id) continue;
    edges.push({
      id: `k:${n.id}->${target}`,
      source: n.id,
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
