/**
 * The pure half of following a session: what changed between what was last sent and what is read
 * now, as the positional deltas shared/live-dto.ts describes (the renderer applies them). PURE.
 */
import type { ContextViewDto } from '../shared/context-dto';
import type { IssueDto, ProfileDto } from '../shared/dto';
import type { EntryNodesDto } from '../shared/entry-nodes';
import type { EntryStatesDto } from '../shared/entry-states';
import type { ContextDeltaDto, GraphDeltaDto, ListDelta } from '../shared/live-dto';

/** What the graph shows besides its nodes, as last sent (or as session.open answered it). */
export interface GraphFacts {
  profile: ProfileDto;
  leafId: string | null;
  pathIds: readonly string[];
  contextEntryIds: readonly string[];
  labels: Readonly<Record<string, string>>;
  sessionName: string | null;
  issues: readonly IssueDto[];
}

/** `next` as a change of `prev`: the common start kept, the rest added (`prev` null: all of it). */
export function listDelta<T>(
  prev: readonly T[] | null,
  next: readonly T[],
  same: (a: T, b: T) => boolean = (a, b) => a === b,
): ListDelta<T> {
  let keep = 0;
  if (prev) {
    const n = Math.min(prev.length, next.length);
    while (keep < n && same(prev[keep]!, next[keep]!)) keep++;
  }
  return { keep, add: next.slice(keep) };
}

/** Labels set, changed (their text) or removed (null) from `prev` to `next` (`prev` null: every label). */
export function labelsDelta(
  prev: Readonly<Record<string, string>> | null,
  next: Readonly<Record<string, string>>,
): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const [id, text] of Object.entries(next)) if (prev?.[id] !== text) out[id] = text;
  if (prev) for (const id of Object.keys(prev)) if (!(id in next)) out[id] = null;
  return out;
}

function sameIssues(a: readonly IssueDto[], b: readonly IssueDto[]): boolean {
  return (
    a.length === b.length &&
    a.every((x, i) => x.line === b[i]!.line && x.kind === b[i]!.kind && x.message === b[i]!.message)
  );
}

/** The graph's change: `nodes` (the entries from `from` on), and the reading's change from `prev` (null: sent whole). */
export function graphDelta(
  prev: GraphFacts | null,
  next: GraphFacts,
  from: number,
  nodes: EntryNodesDto,
): GraphDeltaDto {
  return {
    from,
    entries: nodes,
    profile: next.profile,
    leafId: next.leafId,
    pathIds: listDelta(prev?.pathIds ?? null, next.pathIds),
    contextEntryIds: listDelta(prev?.contextEntryIds ?? null, next.contextEntryIds),
    labels: labelsDelta(prev?.labels ?? null, next.labels),
    ...(prev?.sessionName === next.sessionName ? {} : { sessionName: next.sessionName }),
    ...(prev && sameIssues(prev.issues, next.issues) ? {} : { issues: [...next.issues] }),
  };
}

/** Whether entry i of `a` and entry j of `b` have the same id, line, state, reason and `by`. */
function sameState(a: EntryStatesDto, i: number, b: EntryStatesDto, j: number): boolean {
  const by = (p: EntryStatesDto, k: number) => (p.by[k]! < 0 ? null : p.refs[p.by[k]!]);
  return (
    a.ids[i] === b.ids[j] &&
    a.lines[i] === b.lines[j] &&
    a.states[i] === b.states[j] &&
    a.reasons[a.reason[i]!] === b.reasons[b.reason[j]!] &&
    by(a, i) === by(b, j)
  );
}

/** Entry index → its target id, for the pairs of `p`. */
function targetsOf(p: EntryStatesDto): Map<number, string> {
  const out = new Map<number, string>();
  for (let k = 0; k < p.targets.length; k += 2) out.set(p.targets[k]!, p.refs[p.targets[k + 1]!]!);
  return out;
}

/** The entries of `p` from `keep` on, packed on their own. */
function statesFrom(p: EntryStatesDto, keep: number): EntryStatesDto {
  const targets: number[] = [];
  for (let k = 0; k < p.targets.length; k += 2)
    if (p.targets[k]! >= keep) targets.push(p.targets[k]! - keep, p.targets[k + 1]!);
  return {
    ids: p.ids.slice(keep),
    lines: p.lines.slice(keep),
    states: p.states.slice(keep),
    reasons: p.reasons,
    reason: p.reason.slice(keep),
    refs: p.refs,
    by: p.by.slice(keep),
    targets,
  };
}

type Message = ContextViewDto['messages'][number];

function sameMessage(a: Message, b: Message): boolean {
  return (
    a.index === b.index &&
    a.entryId === b.entryId &&
    a.role === b.role &&
    a.sentAs === b.sentAs &&
    a.preview === b.preview &&
    a.tokens === b.tokens &&
    a.copyOf === b.copyOf
  );
}

/** The context's change from `prev` to `next`: entries, messages, ids and compactions from where they first differ, the rest whole. */
export function contextDelta(prev: ContextViewDto, next: ContextViewDto): ContextDeltaDto {
  const a = prev.entries;
  const b = next.entries;
  const ta = targetsOf(a);
  const tb = targetsOf(b);
  let keep = 0;
  const n = Math.min(a.ids.length, b.ids.length);
  while (keep < n && sameState(a, keep, b, keep) && ta.get(keep) === tb.get(keep)) keep++;
  const { entries: _entries, messages, contextEntryIds, compactions, sessionId: _id, liveSeq: _seq, ...rest } = next;
  return {
    entries: { keep, states: statesFrom(b, keep) },
    messages: listDelta(prev.messages, messages, sameMessage),
    contextEntryIds: listDelta(prev.contextEntryIds, contextEntryIds),
    compactions: listDelta(prev.compactions, compactions, (x, y) => JSON.stringify(x) === JSON.stringify(y)),
    rest,
  };
}
