/**
 * The marks found in one session of a file, each with the repair it plans (part-view.ts edits):
 * entries whose parent never reached disk, forks that lost their compaction boundary, tool calls
 * left without results, results of an omitted truncated call still in context, and edit diffs too
 * large for pi ≤ 1.5.x to render. PURE.
 */
import type { Mark } from './marks';
import { idOf, insertAfter, linkChildren, type Edits, type PartView } from './part-view';
import type { Rec } from './source';

const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The message of a `message` entry, or null. */
function messageOf(v: Rec): Rec | null {
  return v.type === 'message' && isRec(v.message) ? v.message : null;
}

interface ToolCall {
  id: string;
  name: string;
}

function toolCallsOf(v: Rec): ToolCall[] {
  const m = messageOf(v);
  if (!m || m.role !== 'assistant' || !Array.isArray(m.content)) return [];
  return m.content.flatMap((b: unknown) =>
    isRec(b) && b.type === 'toolCall' && typeof b.id === 'string'
      ? [{ id: b.id, name: typeof b.name === 'string' ? b.name : '' }]
      : [],
  );
}

/**
 * An entry whose parent is in no line of this session is re-attached to the entry on the line just
 * before it: when one failed write lost one entry, that is where the chain went on. A re-attachment
 * that would close a cycle makes the entry a root instead.
 */
export function missingParents(view: PartView, edits: Edits, marks: Mark[]): void {
  view.entries.forEach((e, i) => {
    const pid = e.value.parentId;
    if (typeof pid !== 'string' || pid === '' || view.byId.has(pid)) return;
    let prev = i - 1;
    while (prev >= 0 && idOf(view.entries[prev]) === undefined) prev--;
    let to = prev >= 0 ? idOf(view.entries[prev])! : null;
    if (to !== null && reaches(view, to, idOf(e))) to = null;
    view.parent[i] = to;
    edits.parent.set(i, to);
    const at = to === null ? '' : ` (line ${view.entries[prev]!.line})`;
    marks.push({
      kind: 'missing_parent',
      line: e.line,
      ...(idOf(e) !== undefined ? { entryId: idOf(e)! } : {}),
      found: `entry ${idOf(e) ?? '(no id)'} names parent ${pid}, which never reached the file: pi's path stops there and everything before it is lost from the context`,
      repair:
        to === null
          ? 'made a root (no entry is written before it)'
          : `re-attached to ${to}, the entry written just before it${at}: where one failed write lost one entry, that is where the chain continued`,
    });
  });
  linkChildren(view);
}

/** Whether walking up from `from` (the planned parents) meets `id`. */
function reaches(view: PartView, from: string, id: string | undefined): boolean {
  if (id === undefined) return false;
  const seen = new Set<string>();
  for (let at: string | null = from; at !== null && !seen.has(at);) {
    if (at === id) return true;
    seen.add(at);
    const i = view.byId.get(at);
    at = i === undefined ? null : view.parent[i]!;
  }
  return false;
}

/** The tool results that follow an assistant entry as its only-child chain, and the entry they end at. */
function resultChain(view: PartView, at: number, calls: ToolCall[]): { results: number[]; end: number } {
  const ids = new Set(calls.map((c) => c.id));
  const results: number[] = [];
  let end = at;
  // Bounded: duplicate ids can chain an entry to itself.
  for (let step = 0; step < view.entries.length; step++) {
    const id = idOf(view.entries[end]);
    const next = (id === undefined ? [] : (view.children.get(id) ?? [])).find((c) => {
      const m = messageOf(view.entries[c]!.value);
      return m?.role === 'toolResult' && typeof m.toolCallId === 'string' && ids.has(m.toolCallId);
    });
    if (next === undefined || results.includes(next)) break;
    results.push(next);
    end = next;
  }
  return { results, end };
}

function messageTime(v: Rec): number {
  const m = messageOf(v);
  if (m && typeof m.timestamp === 'number') return m.timestamp;
  const t = typeof v.timestamp === 'string' ? Date.parse(v.timestamp) : NaN;
  return Number.isFinite(t) ? t : 0;
}

/** Entry types that add to the conversation (what the model is sent). */
const CONVERSATION = new Set(['message', 'custom_message', 'branch_summary', 'compaction']);

/**
 * Tool calls of an assistant message that got no result while the session went on after them get
 * the result pi 1.6.0 writes for such calls ("Operation aborted", agent-loop's error result), placed
 * after the results that were written. A batch after which the file adds nothing to the conversation
 * is left alone: a session pi is still running looks the same, and so does a fork at that message.
 */
export function orphanToolCalls(view: PartView, edits: Edits, marks: Mark[]): void {
  // The conversation went on where a later line adds to it (a label or a name does not: a fork at
  // the assistant message re-appends its labels after it).
  let lastTurn = -1;
  view.entries.forEach((e, i) => {
    if (CONVERSATION.has(e.value.type as string)) lastTurn = i;
  });
  view.entries.forEach((e, i) => {
    const calls = toolCallsOf(e.value);
    const stop = messageOf(e.value)?.stopReason;
    if (calls.length === 0 || stop === 'aborted' || stop === 'error' || idOf(e) === undefined) return;
    const { results, end } = resultChain(view, i, calls);
    if (end >= lastTurn) return;
    const answered = new Set(results.map((r) => messageOf(view.entries[r]!.value)!.toolCallId));
    const missing = calls.filter((c) => !answered.has(c.id));
    if (missing.length === 0) return;
    const anchor = view.entries[end]!;
    const timestamp = typeof anchor.value.timestamp === 'string' ? anchor.value.timestamp : new Date(0).toISOString();
    const time = messageTime(anchor.value);
    insertAfter(
      edits,
      idOf(anchor)!,
      missing.map((c) => ({
        type: 'message',
        timestamp,
        message: {
          role: 'toolResult',
          toolCallId: c.id,
          toolName: c.name,
          content: [{ type: 'text', text: 'Operation aborted' }],
          details: {},
          isError: true,
          timestamp: time,
        },
      })),
    );
    marks.push({
      kind: 'orphan_tool_calls',
      line: e.line,
      entryId: idOf(e)!,
      found: `${missing.length} of ${calls.length} tool call${calls.length === 1 ? '' : 's'} of assistant entry ${idOf(e)} (${missing.map((c) => c.name || c.id).join(', ')}) never got a result, though the session went on`,
      repair: `given pi's own "Operation aborted" error result${missing.length === 1 ? '' : 's'}, after entry ${idOf(anchor)}`,
    });
  });
}

/**
 * A recovery omission (a `context_edit` removing an assistant message) whose tool results stay in
 * the context gets pi 1.6.0's edits omitting them too, written right after it, as pi writes them.
 */
export function keptTruncatedResults(view: PartView, edits: Edits, marks: Mark[]): void {
  const omitted = new Set<string>();
  for (const e of view.entries) {
    if (e.value.type === 'context_edit' && e.value.replacement === null && typeof e.value.targetId === 'string')
      omitted.add(e.value.targetId);
  }
  view.entries.forEach((e, i) => {
    if (e.value.type !== 'context_edit' || e.value.replacement !== null || typeof e.value.targetId !== 'string') return;
    const target = view.byId.get(e.value.targetId);
    if (target === undefined) return;
    const calls = toolCallsOf(view.entries[target]!.value);
    if (calls.length === 0) return;
    const { results, end } = resultChain(view, target, calls);
    const kept = results.filter((r) => !omitted.has(idOf(view.entries[r])!));
    // Only an omission written after the results (on their branch) is the one pi ≤ 1.3.x left half done.
    if (kept.length === 0 || !reaches(view, idOf(e)!, idOf(view.entries[end]))) return;
    for (const r of kept) omitted.add(idOf(view.entries[r])!);
    insertAfter(
      edits,
      idOf(e)!,
      kept.map((r) => ({
        type: 'context_edit',
        timestamp: e.value.timestamp,
        targetId: idOf(view.entries[r])!,
        replacement: null,
      })),
    );
    marks.push({
      kind: 'kept_truncated_results',
      line: view.entries[i]!.line,
      entryId: idOf(e)!,
      found: `context edit ${idOf(e)} omits assistant entry ${e.value.targetId} but keeps its ${kept.length} tool result${kept.length === 1 ? '' : 's'} (${kept.map((r) => idOf(view.entries[r])).join(', ')}) in the context`,
      repair: `omitted together with it, by pi 1.6.0's own context edits written after ${idOf(e)}`,
    });
  });
}

/**
 * A fork whose compaction keeps from an entry the fork does not hold (a label pi ≤ 0.84.x left out)
 * gets pi 1.6.0's boundary: the first entry after that label on the source's path to the compaction.
 * `source` is the fork's source session's entries (its parentSession); null when it cannot be read.
 */
export function lostBoundaries(
  view: PartView,
  edits: Edits,
  marks: Mark[],
  source: Rec[] | null | undefined,
  sourcePath: string | undefined,
): void {
  view.entries.forEach((e, i) => {
    const kept = e.value.firstKeptEntryId;
    if (e.value.type !== 'compaction' || typeof kept !== 'string' || kept === idOf(e) || view.byId.has(kept)) return;
    if (sourcePath === undefined) return;
    const found = source ? boundaryInSource(source, idOf(e)!, kept) : null;
    // The source shows a boundary that was no label: not what pi ≤ 0.84.x did (a harness fork cut there).
    if (found === 'not_a_label') return;
    const to = found;
    const ok = to !== null && view.byId.has(to);
    if (ok) edits.firstKept.set(i, to);
    const where = source ? 'does not show where that was' : 'cannot be read';
    marks.push({
      kind: 'lost_compaction_boundary',
      line: e.line,
      entryId: idOf(e)!,
      found: ok
        ? `compaction ${idOf(e)} keeps from ${kept}, which this fork does not hold: pi keeps nothing from before the compaction`
        : `compaction ${idOf(e)} keeps from ${kept}, which this fork does not hold, and its source ${sourcePath} ${where}: pi keeps nothing from before the compaction`,
      repair: ok
        ? `boundary set to ${to}, the first entry after ${kept} on the path in ${sourcePath}, as pi 1.6.0 forks`
        : null,
    });
  });
}

/**
 * In the source session: the first non-label entry after the label `kept` on the path from the root
 * to `compaction`; 'not_a_label' when `kept` is another entry there; null when it is not on that path.
 */
function boundaryInSource(source: Rec[], compaction: string, kept: string): string | 'not_a_label' | null {
  const byId = new Map<string, Rec>();
  for (const e of source) if (typeof e.id === 'string') byId.set(e.id, e);
  const path: Rec[] = [];
  const seen = new Set<string>();
  for (let at = byId.get(compaction); at && !seen.has(at.id as string);) {
    seen.add(at.id as string);
    path.push(at);
    at = typeof at.parentId === 'string' ? byId.get(at.parentId) : undefined;
  }
  path.reverse();
  const from = path.findIndex((e) => e.id === kept);
  if (from < 0) return null;
  if (path[from]!.type !== 'label') return 'not_a_label';
  const next = path.slice(from + 1).find((e) => e.type !== 'label');
  return next && typeof next.id === 'string' ? next.id : null;
}

/** Edit diffs this long crashed pi ≤ 1.5.x on every resume. */
export const HUGE_DIFF_CHARS = 1024 * 1024;

/** Edit results with a diff of a megabyte or more: pi 1.6.0 renders them, so nothing is changed. */
export function hugeEditDiffs(view: PartView, marks: Mark[]): void {
  for (const e of view.entries) {
    const m = messageOf(e.value);
    const diff = m?.role === 'toolResult' && m.toolName === 'edit' && isRec(m.details) ? m.details.diff : undefined;
    if (typeof diff !== 'string' || diff.length < HUGE_DIFF_CHARS) continue;
    marks.push({
      kind: 'huge_edit_diff',
      line: e.line,
      ...(idOf(e) !== undefined ? { entryId: idOf(e)! } : {}),
      found: `the edit result ${idOf(e) ?? ''} carries a ${(diff.length / 1024 / 1024).toFixed(1)} MB diff: pi 1.6.0 resumes it, older pi crash on it (update pi)`,
      repair: null,
    });
  }
}
