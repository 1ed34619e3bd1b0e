/**
 * What reaches the model: selection of context entries from a path, projection of each entry
 * to messages, and the state derived along the path, per profile.
 *
 * CA mirrors pi-coding-agent 1.6.0 (session-manager.js: getSessionContextSettings,
 * buildContextEntries, sessionEntryToContextMessages, projectContextEntry, buildSessionProjection).
 * H3 mirrors pi-agent-core 0.82.1 (harness/session/session.js: deriveSessionContextState,
 * defaultContextEntryTransform, sessionEntryToContextMessages, buildSessionContext).
 *
 * Message objects are pi's: the stored message object itself or a built summary/custom message
 * with `timestamp: new Date(entry.timestamp).getTime()`. Where pi would crash on a malformed
 * payload (TypeError), the entry contributes nothing and a `malformed_entry` issue is reported.
 */
import { compactionFacts, entryRole, messageMissing, timeOf } from './entry-fields';
import { seqOf, type EntrySeq } from './path';
import type { Entry, Issue } from '../types';

type Rec = Record<string, any>;

export interface ProjectedEntry {
  entry: Entry;
  messages: unknown[];
}

export interface CaContext {
  messages: unknown[];
  thinkingLevel: unknown;
  model: unknown;
}

export interface H3Context {
  thinkingLevel: unknown;
  model: unknown;
  activeToolNames: unknown[] | null;
  messages: unknown[];
}

/** Collects issues, at most one per entry and reason. */
export class IssueSink {
  readonly issues: Issue[] = [];
  private readonly seen = new Set<string>();
  malformed(e: Entry, why: string): void {
    const key = `${e.line}:${why}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.issues.push({ line: e.line, kind: 'malformed_entry', message: `entry ${e.id} ${why}` });
  }
}

/** Why pi would crash on an entry (issue texts the context rules and readForGraph share). */
export const MALFORMED = {
  noMessage: 'has no message object',
  noReplacement: 'has no replacement',
  noToolList: 'has no activeToolNames list',
  tailNotList: 'has a retainedTail that is not a list',
} as const;
const NO_MESSAGE = MALFORMED.noMessage;
/** Roles a context_edit replaces the content of. */
export const EDITABLE_ROLES: ReadonlySet<unknown> = new Set(['user', 'assistant', 'toolResult', 'custom']);

function customMessage(raw: Rec, content: unknown): Rec {
  return {
    role: 'custom',
    customType: raw.customType,
    content,
    display: raw.display,
    details: raw.details,
    timestamp: timeOf(raw.timestamp),
  };
}

function branchSummaryMessage(raw: Rec): Rec {
  return { role: 'branchSummary', summary: raw.summary, fromId: raw.fromId, timestamp: timeOf(raw.timestamp) };
}

function compactionSummaryMessage(raw: Rec): Rec {
  return {
    role: 'compactionSummary',
    summary: raw.summary,
    tokensBefore: raw.tokensBefore,
    timestamp: timeOf(raw.timestamp),
  };
}

/**
 * The path's last compaction and its index. pi finds it scanning the whole path and then looks
 * its id up with findIndex; ids on a walked path are unique (walks stop at a repeat), so scanning
 * back from the leaf finds the same entry at the same index without reading the older path.
 */
function lastCompaction(path: EntrySeq): { compaction: Entry; index: number } | null {
  for (let i = path.length - 1; i >= 0; i--) {
    if (path.typeAt(i) === 'compaction') return { compaction: path.entryAt(i), index: i };
  }
  return null;
}

// ---------------------------------------------------------------- CA (pi-coding-agent 1.6.0)

/**
 * The entries that set the thinking level and the model at the end of a path: the last
 * thinking_level_change, and the last model_change or assistant message (pi: `message.role ===
 * 'assistant'` on a non-null message). Found walking back from the leaf, so only those bodies are
 * read (a long path of an indexed session is not parsed whole). Both profiles and the context view
 * use this one rule.
 */
export function lastSetters(path: EntrySeq): { thinking: Entry | null; model: Entry | null } {
  let thinking: Entry | null = null;
  let model: Entry | null = null;
  for (let i = path.length - 1; i >= 0 && !(thinking && model); i--) {
    // Types first: an indexed path creates only the entries that may be setters.
    const type = path.typeAt(i);
    if (type === 'thinking_level_change') thinking ??= path.entryAt(i);
    else if (!model && type === 'model_change') model = path.entryAt(i);
    else if (!model && type === 'message') {
      const e = path.entryAt(i);
      if (!messageMissing(e) && entryRole(e) === 'assistant') model = e;
    }
  }
  return { thinking, model };
}

/** The model a setter from lastSetters names, as pi reads it (the values unchecked). */
export function setterModel(e: Entry): { provider: unknown; modelId: unknown } {
  if (e.type === 'model_change') return { provider: e.raw.provider, modelId: e.raw.modelId };
  const m = e.raw.message as Rec;
  return { provider: m.provider, modelId: m.model };
}

function lastSettings(path: EntrySeq): { thinkingLevel: unknown; model: unknown } {
  const { thinking, model } = lastSetters(path);
  return { thinkingLevel: thinking ? thinking.raw.thinkingLevel : 'off', model: model ? setterModel(model) : null };
}

/**
 * `without`: the message entries without a message (EntrySource.messagesWithout), when known: the
 * path is only searched for them when there are any.
 */
export function caSettings(
  path: EntrySeq,
  sink: IssueSink,
  without?: readonly Entry[],
): { thinkingLevel: unknown; model: unknown } {
  caSettingsIssues(path, sink, without);
  return lastSettings(path);
}

/** What pi's getSessionContextSettings crashes on: message entries of the path without a message. */
export function caSettingsIssues(path: EntrySeq, sink: IssueSink, without?: readonly Entry[]): void {
  if (without && without.length === 0) return;
  for (let k = 0; k < path.length; k++) {
    if (path.typeAt(k) !== 'message') continue;
    const e = path.entryAt(k);
    if (messageMissing(e)) sink.malformed(e, NO_MESSAGE);
  }
}

/** CA buildContextEntries: [latest compaction, kept range minus system messages, everything after]. */
export function caSelect(path: EntrySeq): Entry[] {
  const found = lastCompaction(path);
  if (!found) return path.entries;
  const { compaction, index } = found;
  const firstKept = compactionFacts(compaction).firstKeptEntryId;
  const out: Entry[] = [compaction];
  // pi keeps path[k..index) from the first entry whose id is firstKeptEntryId (none: nothing);
  // ids on the path are unique, so the kept range is found scanning back from the compaction.
  let from = index;
  for (let i = index - 1; i >= 0; i--) {
    if (path.entryAt(i).id === firstKept) {
      from = i;
      break;
    }
  }
  for (let i = from; i < index; i++) {
    const e = path.entryAt(i);
    if (!(e.type === 'message' && entryRole(e) === 'system')) out.push(e);
  }
  for (let i = index + 1; i < path.length; i++) out.push(path.entryAt(i));
  return out;
}

export function caEntryMessages(e: Entry, sink: IssueSink): unknown[] {
  const raw = e.raw;
  switch (e.type) {
    case 'message': {
      const m = raw.message as Rec | null | undefined;
      if (m == null) {
        sink.malformed(e, NO_MESSAGE);
        return [];
      }
      if (m.role === 'system' && m.content == null) return [{ ...m, content: '' }];
      if ((m.role === 'user' || m.role === 'assistant' || m.role === 'toolResult') && m.content == null) {
        return [{ ...m, content: [] }];
      }
      return [m];
    }
    case 'custom_message':
      return [customMessage(raw, raw.content ?? [])];
    case 'branch_summary':
      return raw.summary ? [branchSummaryMessage(raw)] : [];
    case 'compaction': {
      const summary = compactionSummaryMessage(raw);
      return raw.systemMessage ? [raw.systemMessage, summary] : [summary];
    }
    default:
      return [];
  }
}

/** CA projectContextEntry: the entry's messages with its latest context edit applied. */
function caProjectEntry(e: Entry, edit: Entry | undefined, sink: IssueSink): unknown[] {
  const messages = caEntryMessages(e, sink);
  if (!edit) return messages;
  const replacement = edit.raw.replacement as Rec | null | undefined;
  if (replacement === null) return [];
  return messages.map((message) => {
    const m = message as Rec | null;
    if (m == null || !EDITABLE_ROLES.has(m.role)) return message;
    if (replacement === undefined) {
      sink.malformed(edit, MALFORMED.noReplacement);
      return message;
    }
    const content =
      (m.role === 'assistant' || m.role === 'toolResult') && typeof replacement.content === 'string'
        ? [{ type: 'text', text: replacement.content }]
        : replacement.content;
    return { ...m, content };
  });
}

/** CA buildSessionProjection's per-entry list: later compactions give no messages; edits applied. */
export function caProject(contextEntries: Entry[], sink: IssueSink): ProjectedEntry[] {
  const edits = new Map<unknown, Entry>();
  for (const e of contextEntries) if (e.type === 'context_edit') edits.set(e.raw.targetId, e);
  return contextEntries.map((entry, index) => ({
    entry,
    messages: entry.type === 'compaction' && index > 0 ? [] : caProjectEntry(entry, edits.get(entry.id), sink),
  }));
}

export function caContext(
  path: EntrySeq,
  sink: IssueSink,
  messagesWithout?: readonly Entry[],
): { contextEntries: Entry[]; projection: ProjectedEntry[]; context: CaContext } {
  const { thinkingLevel, model } = caSettings(path, sink, messagesWithout);
  const contextEntries = caSelect(path);
  const projection = caProject(contextEntries, sink);
  const messages = projection.flatMap((p) => p.messages);
  return { contextEntries, projection, context: { messages, thinkingLevel, model } };
}

// ---------------------------------------------------------------- H3 (pi-agent-core 0.82.1)

/** `[...value]` as JS would do it, or undefined where JS throws (value not iterable). */
export function spreadLike(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value.slice();
  if (typeof value === 'string') return [...value];
  return undefined;
}

export function h3State(
  path: Entry[],
  sink: IssueSink,
): { thinkingLevel: unknown; model: unknown; activeToolNames: unknown[] | null } {
  let activeToolNames: unknown[] | null = null;
  for (const e of path) {
    if (e.type === 'message') {
      if (messageMissing(e)) sink.malformed(e, NO_MESSAGE);
    } else if (e.type === 'active_tools_change') {
      const names = spreadLike(e.raw.activeToolNames);
      if (names) activeToolNames = names;
      else sink.malformed(e, MALFORMED.noToolList);
    }
  }
  return { ...lastSettings(seqOf(path)), activeToolNames };
}

/** H3 defaultContextEntryTransform. */
export function h3Select(path: Entry[]): Entry[] {
  let compaction: Entry | null = null;
  for (const e of path) if (e.type === 'compaction') compaction = e;
  if (!compaction) return path.slice();
  const c = compaction;
  const index = path.findIndex((e) => e.type === 'compaction' && e.id === c.id);
  const out: Entry[] = [c];
  const facts = compactionFacts(c);
  if (!facts.retainedTail) {
    const firstKept = facts.firstKeptEntryId;
    if (firstKept) {
      let kept = false;
      for (let i = 0; i < index; i++) {
        const e = path[i]!;
        if (e.id === firstKept) kept = true;
        if (kept) out.push(e);
      }
    }
  }
  for (let i = index + 1; i < path.length; i++) out.push(path[i]!);
  return out;
}

export function h3EntryMessages(e: Entry, sink: IssueSink): unknown[] {
  const raw = e.raw;
  switch (e.type) {
    case 'message':
      // pi returns [undefined] for a missing message; null is the same after a JSON round trip.
      return [raw.message === undefined ? null : raw.message];
    case 'custom_message':
      return [customMessage(raw, raw.content)];
    case 'compaction': {
      const tail = raw.retainedTail;
      const spread = tail == null ? [] : spreadLike(tail);
      if (!spread) sink.malformed(e, MALFORMED.tailNotList);
      return [compactionSummaryMessage(raw), ...(spread ?? [])];
    }
    case 'branch_summary':
      return raw.summary ? [branchSummaryMessage(raw)] : [];
    default:
      // `custom` entries only project through caller-registered projectors; pi registers none.
      return [];
  }
}

export function h3Project(contextEntries: Entry[], sink: IssueSink): ProjectedEntry[] {
  return contextEntries.map((entry) => ({ entry, messages: h3EntryMessages(entry, sink) }));
}

export function h3Context(
  path: Entry[],
  sink: IssueSink,
): { contextEntries: Entry[]; projection: ProjectedEntry[]; context: H3Context } {
  const state = h3State(path, sink);
  const contextEntries = h3Select(path);
  const projection = h3Project(contextEntries, sink);
  const messages = projection.flatMap((p) => p.messages);
  return { contextEntries, projection, context: { ...state, messages } };
}
