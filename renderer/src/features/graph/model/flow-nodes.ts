import type { EntryStateDto, LineageLinkDto, SessionGraphDto } from '../../../lib/shared';
import { componentKind, dataKind, type NodeComponentKind } from '../../../model/kinds';
import { membersOf } from './collapse';
import { NODE_HEIGHT, NODE_WIDTH } from './layout';
import { attrs, BASE_HANDLES, KEPT_HANDLES, type FlowNode, type FlowUi } from './flow';
import type { LodNode } from './lod';
import type { LodView } from './lod-view';
import type { GraphView } from './view';

const NO_FORKS: LineageLinkDto[] = [];
/** How far down a branch the cluster looks for its first prompt. */
const PROMPT_WALK = 60;

/** Entry indices a LOD node stands for on its own line (a run's members in trunk order). */
export function lodMembers(view: GraphView, node: LodNode): number[] {
  const out: number[] = [];
  for (const d of node.draws) for (const m of membersOf(view.drawTree, view.drawTree.nodes.get(d)!)) out.push(m);
  return out;
}

/** Per drawn node, how many of `ids` it shows (search hits, highlighted entries). */
function countByOwner(view: GraphView, lod: LodView, ids: Iterable<string> | undefined): Map<string, number> {
  const out = new Map<string, number>();
  if (!ids) return out;
  for (const id of ids) {
    const d = view.drawNodeOf(id);
    const owner = d ? lod.lod.ownerOf.get(d.id) : undefined;
    if (owner) out.set(owner, (out.get(owner) ?? 0) + 1);
  }
  return out;
}

/** The first user prompt down a branch's first-child line (what the branch set out to do). */
export function firstPrompt(view: GraphView, drawId: string): string {
  const { index } = view;
  let cur = view.drawTree.nodes.get(drawId)?.first ?? -1;
  for (let steps = 0; cur !== -1 && steps < PROMPT_WALK; steps++) {
    const e = index.entries[cur]!;
    if (e.type === 'message' && e.role === 'user' && e.preview) return e.preview;
    const s = index.childStart[cur]!;
    cur = s < index.childStart[cur + 1]! ? index.childList[s]! : -1;
  }
  return '';
}

const SIZE = { width: NODE_WIDTH, height: NODE_HEIGHT, handles: BASE_HANDLES };

const counts = (n: LodNode) => ({
  'data-entries': String(n.entries),
  'data-tips': String(n.tips),
  'data-compactions': String(n.compactions),
});

export function toFlowNodes(view: GraphView, lod: LodView, graph: SessionGraphDto, ui: FlowUi): FlowNode[] {
  const { index } = view;
  const matches = countByOwner(view, lod, ui.matches);
  const highlights = countByOwner(view, lod, ui.highlight);
  const out: FlowNode[] = [];
  for (const id of lod.layout.order) {
    const n = lod.lod.nodes.get(id)!;
    const p = lod.layout.placed.get(id)!;
    const base = { id, ...SIZE, position: { x: p.x, y: p.y }, draggable: false, connectable: false };
    const onPath = n.draws.some((d) => view.drawOnPath.has(d));
    if (n.kind === 'cluster') {
      out.push({
        ...base,
        type: 'cluster',
        ariaLabel: `${n.draws.length} side branches, ${n.tips} tips, ${n.entries} entries`,
        domAttributes: attrs({ 'data-kind': 'cluster', ...counts(n) }),
        data: {
          branches: n.draws.length,
          entries: n.entries,
          tips: n.tips,
          compactions: n.compactions,
          firstPrompt: firstPrompt(view, n.draws[0]!),
          isCursor: ui.cursorId === id,
          matches: matches.get(id) ?? 0,
          highlighted: highlights.get(id) ?? 0,
        },
      });
      continue;
    }
    if (n.kind === 'chain') {
      const members = lodMembers(view, n);
      const mix = new Map<EntryStateDto, number>();
      const kinds = new Map<string, number>();
      for (const m of members) {
        const state = ui.context?.stateOf(index.ids[m]!);
        if (state) mix.set(state, (mix.get(state) ?? 0) + 1);
        const k = dataKind(index.entries[m]!);
        kinds.set(k, (kinds.get(k) ?? 0) + 1);
      }
      const contextMix = [...mix].sort((a, b) => b[1] - a[1]);
      const uniform = contextMix.length === 1 && contextMix[0]![1] === members.length ? contextMix[0]![0] : undefined;
      const highlighted = highlights.get(id) ?? 0;
      out.push({
        ...base,
        type: 'chain',
        ariaLabel: `${n.entries} collapsed entries`,
        domAttributes: attrs({
          'data-kind': 'chain',
          ...counts(n),
          'data-on-path': onPath ? 'true' : undefined,
          'data-context': uniform,
          'data-highlight': highlighted > 0 ? 'true' : undefined,
        }),
        data: {
          count: n.entries,
          first: index.entries[members[0]!]!,
          last: index.entries[members[members.length - 1]!]!,
          kinds: [...kinds].sort((a, b) => b[1] - a[1]),
          onPath,
          isCursor: ui.cursorId === id,
          matches: matches.get(id) ?? 0,
          contextMix,
          highlighted,
          tips: n.tips,
          compactions: n.compactions,
        },
      });
      continue;
    }
    out.push(entryNode(view, graph, ui, n, base, onPath));
  }
  return out;
}

function entryNode(
  view: GraphView,
  graph: SessionGraphDto,
  ui: FlowUi,
  n: LodNode,
  base: Omit<FlowNode, 'type' | 'data'>,
  onPath: boolean,
): FlowNode {
  const { id } = n;
  const i = view.drawTree.nodes.get(id)!.first;
  const entry = view.index.entries[i]!;
  const checkpoint =
    entry.type === 'compaction' && entry.checkpoint && entry.checkpoint !== 'none' ? entry.checkpoint : undefined;
  const context = ui.context?.get(id) ?? null;
  const isWhatIfLeaf = ui.whatIfLeafId === id;
  const isHighlighted = ui.highlight?.has(id) ?? false;
  const kind = componentKind(entry) as Exclude<NodeComponentKind, 'chain'>;
  return {
    ...base,
    type: kind,
    handles: kind === 'compaction' && entry.checkpoint === 'first-kept' ? KEPT_HANDLES : BASE_HANDLES,
    ariaLabel: `${dataKind(entry)} ${id}`,
    domAttributes: attrs({
      'data-kind': 'entry',
      'data-entry-kind': dataKind(entry),
      'data-on-path': onPath ? 'true' : undefined,
      'data-checkpoint': checkpoint,
      'data-leaf': id === graph.leafId ? 'true' : undefined,
      'data-tip': view.drawTree.nodes.get(id)!.children.length === 0 ? 'true' : undefined,
      'data-match': ui.matches.has(id) ? 'true' : undefined,
      'data-context': context?.state,
      'data-what-if-leaf': isWhatIfLeaf ? 'true' : undefined,
      'data-what-if-path': ui.whatIfPath?.has(id) ? 'true' : undefined,
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
      parentFork: ui.parentAt?.entryId === id ? ui.parentAt.link : null,
    },
  } as FlowNode;
}
