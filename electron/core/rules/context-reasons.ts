/**
 * Why an entry is (or is not) part of what the model receives: one state and a short reason per
 * entry, following the selection, projection and convertToLlm rules of the reading profile. PURE.
 */
import type { Ranges } from './context-compactions';
import type { EntryStateInfo } from '../../shared/context-dto';
import { entryRole, entryTargetId } from './entry-fields';
import type { Entry, Profile } from '../types';

type Rec = Record<string, unknown>;

const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null;

export interface Classifier {
  profile: Profile;
  /** context entry id → the messages it produces (edits applied). */
  projection: Map<string, unknown[]>;
  /** entry id → index on the leaf's full ancestor chain. */
  chainIndex: Map<string, number>;
  /** H3: chain index of the first entry of the checkpoint-truncated path (0 for CA). */
  truncatedAt: number;
  ranges: Ranges;
  /** entry id → the compaction whose retainedTail holds a copy of its message. */
  copiedBy: Map<string, string>;
}

/**
 * convertToLlm (CA 1.6.0 core/messages.js, H3 0.82.1 harness/messages.js): custom, summaries and
 * bash runs become user messages, `!!` bash runs are dropped, CA keeps `system` (H3 drops it),
 * unknown roles are dropped. null = not sent.
 */
export function sentAs(message: unknown, profile: Profile): 'user' | 'assistant' | 'toolResult' | 'system' | null {
  if (!isRec(message)) return null;
  switch (message.role) {
    case 'bashExecution':
      return message.excludeFromContext ? null : 'user';
    case 'custom':
    case 'branchSummary':
    case 'compactionSummary':
      return 'user';
    case 'system':
      return profile === 'ca' ? 'system' : null;
    case 'user':
    case 'assistant':
    case 'toolResult':
      return message.role;
    default:
      return null;
  }
}

const EDITABLE_ROLES = new Set(['user', 'assistant', 'toolResult', 'custom']);

function state(e: Entry, s: EntryStateInfo['state'], reason: string, extra?: Partial<EntryStateInfo>): EntryStateInfo {
  const info: EntryStateInfo = { id: e.id, line: e.line, state: s, reason };
  return extra ? Object.assign(info, extra) : info;
}

function notProjected(e: Entry, c: Classifier, edits: Map<unknown, Entry>): EntryStateInfo {
  const ca = c.profile === 'ca';
  switch (e.type) {
    case 'compaction':
      return state(e, 'not-projected', 'older compaction inside the kept range: only the newest compaction is sent', {
        ...(c.ranges.latest ? { by: c.ranges.latest.entry.id } : {}),
      });
    case 'custom':
      return state(
        e,
        'not-projected',
        ca ? 'extension state (custom entry): never sent' : 'extension state (custom entry): no projector registered',
      );
    case 'model_change':
      return state(e, 'not-projected', 'state only: sets the model');
    case 'thinking_level_change':
      return state(e, 'not-projected', 'state only: sets the thinking level');
    case 'active_tools_change':
      return state(
        e,
        'not-projected',
        ca ? 'state only: active tools (CA does not read it)' : 'state only: sets the active tools',
      );
    case 'label':
      return state(e, 'not-projected', 'label: shown in the tree, not sent');
    case 'session_info':
      return state(e, 'not-projected', 'session name: not sent');
    case 'leaf':
      return state(e, 'not-projected', 'leaf pointer (H3 navigation): not sent');
    case 'usage':
      return state(e, 'not-projected', 'usage record: cost accounting only');
    case 'context_edit': {
      const target = entryTargetId(e);
      const extra = typeof target === 'string' ? { targetId: target } : {};
      if (!ca) return state(e, 'not-projected', 'context edit record: a CA 1.6.0 entry that H3 ignores', extra);
      const applied = edits.get(e.raw.targetId) === e;
      const onContext = typeof target === 'string' && c.projection.has(target);
      const reason = !applied
        ? 'context edit record: superseded by a later edit of the same entry'
        : onContext
          ? 'context edit record: changes what its target sends'
          : 'context edit record: its target is not in the context';
      return state(e, 'not-projected', reason, extra);
    }
    case 'branch_summary':
      return state(e, 'not-projected', 'empty branch summary: nothing to send');
    case 'message':
      return state(e, 'not-projected', 'malformed: the entry has no message object');
    default:
      return state(e, 'not-projected', `unknown entry type "${e.type}": pi sends nothing`);
  }
}

function excludedReason(message: unknown, profile: Profile): string {
  if (!isRec(message)) return 'malformed: the message is missing';
  if (message.role === 'bashExecution') return '!! run: dropped by convertToLlm';
  if (message.role === 'system') return `system message: ${profile === 'h3' ? "H3's" : "pi's"} convertToLlm drops it`;
  return `role "${String(message.role)}" is dropped by convertToLlm`;
}

function includedReason(e: Entry, messages: unknown[], c: Classifier): string {
  const latest = c.ranges.latest;
  switch (e.type) {
    case 'compaction': {
      const tail = messages.filter((m) => isRec(m) && m.role !== 'compactionSummary' && m.role !== 'system').length;
      if (c.profile === 'h3' && tail > 0)
        return `its summary and ${tail} retained message${tail > 1 ? 's' : ''} open the context`;
      if (messages.some((m) => isRec(m) && m.role === 'system'))
        return 'its system prompt replay and summary open the context';
      return 'its summary opens the context';
    }
    case 'branch_summary':
      return 'sent as a branch summary (user message)';
    case 'custom_message':
      return 'sent as a user message (custom message)';
    default: {
      const i = c.chainIndex.get(e.id);
      if (latest && i !== undefined && i < latest.index) return 'sent: in the kept range of the latest compaction';
      return entryRole(e) === 'system' ? 'sent: system prompt update' : 'sent to the model';
    }
  }
}

/** An entry that buildContextEntries selected. */
export function classifyInContext(e: Entry, c: Classifier, edits: Map<unknown, Entry>): EntryStateInfo {
  const messages = c.projection.get(e.id) ?? [];
  const edit = edits.get(e.id);
  if (edit) {
    const replacement = edit.raw.replacement;
    if (replacement === null) return state(e, 'edited', 'omitted by a context edit', { by: edit.id });
    if (isRec(replacement) && messages.some((m) => isRec(m) && EDITABLE_ROLES.has(String(m.role)))) {
      return state(e, 'edited', 'content replaced by a context edit', { by: edit.id });
    }
  }
  if (messages.length === 0) return notProjected(e, c, edits);
  const sent = messages.filter((m) => sentAs(m, c.profile) !== null);
  if (sent.length === 0) return state(e, 'excluded', excludedReason(messages[0], c.profile));
  return state(e, 'included', includedReason(e, messages, c));
}

/** An entry on the leaf's full ancestor chain that is not in the context. */
export function classifyOffContext(e: Entry, c: Classifier): EntryStateInfo {
  const latest = c.ranges.latest;
  const copiedBy = c.copiedBy.get(e.id);
  if (copiedBy) return state(e, 'summarised', "sent as a copy inside the compaction's retainedTail", { by: copiedBy });
  const i = c.chainIndex.get(e.id)!;
  if (c.profile === 'ca' && latest && i >= latest.keptStart && i < latest.index && entryRole(e) === 'system') {
    return state(
      e,
      'summarised',
      'system message in the kept range: CA 1.6.0 drops it (the compaction replays the prompt)',
      { by: latest.entry.id },
    );
  }
  const by = c.ranges.hiddenBy.get(e.id);
  if (by) {
    const checkpoint = c.profile === 'h3' && c.ranges.checkpoints.has(by);
    return state(
      e,
      'summarised',
      checkpoint
        ? 'before a retainedTail checkpoint: covered by its summary'
        : 'before the first kept entry: covered by the summary',
      { by },
    );
  }
  if (i < c.truncatedAt)
    return state(e, 'summarised', "above H3's checkpoint: the path stops before it", truncatedBy(c));
  return state(
    e,
    'summarised',
    "on the path but outside the latest compaction's kept range",
    latest ? { by: latest.entry.id } : {},
  );
}

/** The compaction that made H3's walk stop: a retainedTail one at the path's start, else the root-most one on the path. */
function truncatedBy(c: Classifier): Partial<EntryStateInfo> {
  for (const r of c.ranges.list) {
    if (r.index < c.truncatedAt) continue;
    if (r.index === c.truncatedAt && !c.ranges.checkpoints.has(r.entry.id)) continue;
    return { by: r.entry.id };
  }
  return {};
}
