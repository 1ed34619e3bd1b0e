/**
 * What an append to an open session changed, as main sends it (`session.appended`,
 * `session.contextChanged`) and as the renderer applies it to the graph and context it holds.
 * Every part is positional (keep the first n, then add these), so applying one twice, or on a
 * snapshot already ahead of it, gives the same result. PURE; shared by main (tests) and the renderer.
 */
import type { ContextViewDto } from './context-dto';
import type { IssueDto, ProfileDto, SessionGraphDto } from './dto';
import { unpackEntryNodes, type EntryNodesDto } from './entry-nodes';
import type { EntryStatesDto } from './entry-states';

/** A list after a change: its first `keep` items as they were, then `add`. */
export interface ListDelta<T = string> {
  keep: number;
  add: T[];
}

/** The graph's change: nodes from index `from` on (packed as session.open packs them), and the reading's. */
export interface GraphDeltaDto {
  /** Nodes before `from` are kept (`from` < the count held: a still-written last line was taken back). */
  from: number;
  /** The new nodes with their previews and flags; a parent outside them is in `looseParents`. */
  entries: EntryNodesDto;
  profile: ProfileDto;
  leafId: string | null;
  pathIds: ListDelta;
  contextEntryIds: ListDelta;
  /** Labels set or changed; null: removed. */
  labels: Record<string, string | null>;
  /** Present when the session's name changed. */
  sessionName?: string | null;
  /** Present when the issues changed (the whole list: it is short). */
  issues?: IssueDto[];
}

/** `session.appended`: the open session at `sessionId` changed on disk. */
export interface SessionAppendedDto {
  sessionId: string;
  sizeBytes: number;
  /** Per open session, from 1; absent when main does not hold the session open (fetch it again). */
  seq?: number;
  graph?: GraphDeltaDto;
  /** The file was truncated, replaced or rewritten: what is held is wrong, fetch once (the reason is shown). */
  reset?: string;
}

/** The context view's change (at the profile's current leaf). */
export interface ContextDeltaDto {
  /** Entry states from index `keep` on are replaced by these. */
  entries: { keep: number; states: EntryStatesDto };
  messages: ListDelta<ContextViewDto['messages'][number]>;
  contextEntryIds: ListDelta;
  /** Compactions on the path (each carries its summary: a long path's list is large). */
  compactions: ListDelta<ContextViewDto['compactions'][number]>;
  /** The small fields, whole (the leaf, counts, tokens, ledgers, derived state, issues). */
  rest: Omit<ContextViewDto, 'entries' | 'messages' | 'contextEntryIds' | 'compactions' | 'sessionId' | 'liveSeq'>;
}

/** `session.contextChanged`: the context moved from the one sent at seq `base` to seq `seq`. */
export interface SessionContextChangedDto {
  sessionId: string;
  seq: number;
  base: number;
  context: ContextDeltaDto;
}

export function applyList<T>(held: readonly T[], d: ListDelta<T>): T[] | null {
  if (d.keep > held.length) return null;
  return d.keep === held.length ? [...held, ...d.add] : [...held.slice(0, d.keep), ...d.add];
}

/** `graph` with change `seq` (`d`, the file now `sizeBytes`) applied; null when it lacks what `d` keeps (fetch again). */
export function applyGraphDelta(
  graph: SessionGraphDto,
  d: GraphDeltaDto,
  seq: number,
  sizeBytes: number,
): SessionGraphDto | null {
  if (d.from > graph.entries.length) return null;
  const pathIds = applyList(graph.pathIds, d.pathIds);
  const contextEntryIds = applyList(graph.contextEntryIds, d.contextEntryIds);
  if (!pathIds || !contextEntryIds) return null;
  const added = unpackEntryNodes(d.entries);
  // A parent named by id: the renderer keeps one copy of each id string (the held node's).
  const held = graph.entries.slice(0, d.from);
  const labels = { ...graph.labels };
  for (const [id, text] of Object.entries(d.labels)) {
    if (text === null) delete labels[id];
    else labels[id] = text;
  }
  return {
    ...graph,
    entries: held.concat(added),
    profile: d.profile,
    leafId: d.leafId,
    pathIds,
    contextEntryIds,
    labels,
    ...(d.sessionName !== undefined ? { sessionName: d.sessionName } : {}),
    ...(d.issues ? { issues: d.issues } : {}),
    sizeBytes,
    liveSeq: seq,
  };
}

/** Entry states `keep` and after replaced by `tail` (its reasons and refs merged into the held tables). */
export function spliceEntryStates(held: EntryStatesDto, keep: number, tail: EntryStatesDto): EntryStatesDto | null {
  if (keep > held.ids.length) return null;
  const table = (values: readonly string[]) => {
    const out = values.slice();
    const at = new Map(out.map((v, i) => [v, i]));
    const index = (v: string): number => {
      let i = at.get(v);
      if (i === undefined) at.set(v, (i = out.push(v) - 1));
      return i;
    };
    return { out, index };
  };
  const reasons = table(held.reasons);
  const refs = table(held.refs);
  const targets: number[] = [];
  for (let k = 0; k < held.targets.length && held.targets[k]! < keep; k += 2)
    targets.push(held.targets[k]!, held.targets[k + 1]!);
  for (let k = 0; k < tail.targets.length; k += 2)
    targets.push(tail.targets[k]! + keep, refs.index(tail.refs[tail.targets[k + 1]!]!));
  return {
    ids: held.ids.slice(0, keep).concat(tail.ids),
    lines: held.lines.slice(0, keep).concat(tail.lines),
    states: held.states.slice(0, keep).concat(tail.states),
    reason: held.reason.slice(0, keep).concat(tail.reason.map((r) => reasons.index(tail.reasons[r]!))),
    by: held.by.slice(0, keep).concat(tail.by.map((b) => (b < 0 ? -1 : refs.index(tail.refs[b]!)))),
    targets,
    reasons: reasons.out,
    refs: refs.out,
  };
}

/** `view` with `d` applied (at seq `seq`); null when it lacks what the delta keeps. */
export function applyContextDelta(view: ContextViewDto, d: ContextDeltaDto, seq: number): ContextViewDto | null {
  const entries =
    d.entries.keep === view.entries.ids.length && d.entries.states.ids.length === 0
      ? view.entries
      : spliceEntryStates(view.entries, d.entries.keep, d.entries.states);
  const messages = applyList(view.messages, d.messages);
  const contextEntryIds = applyList(view.contextEntryIds, d.contextEntryIds);
  const compactions = applyList(view.compactions, d.compactions);
  if (!entries || !messages || !contextEntryIds || !compactions) return null;
  return { ...view, ...d.rest, entries, messages, contextEntryIds, compactions, liveSeq: seq };
}
