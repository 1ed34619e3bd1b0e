/**
 * What the graph of a session needs of a reading (leaf, path, context entry ids, labels, name,
 * issues) without building the context's messages: those are the context entries' bodies, and in
 * an image-heavy session that is every screenshot on the context (pi #9613). Selection works from
 * envelopes and the index's facts; only bodies that can carry an issue pi would report are read
 * (context_edit targets without a replacement, H3's active_tools_change and retainedTail
 * compactions), all small and rare. PURE.
 *
 * Equal to readSession minus `context`, except for issues only a body read finds (`too_deep` of a
 * message body): those come when that body is read (inspector, context view).
 */
import {
  caSelect,
  caSettingsIssues,
  EDITABLE_ROLES,
  h3Select,
  IssueSink,
  MALFORMED,
  caEntryMessages,
  spreadLike,
} from './context';
import { entryTargetId, messageMissing } from './entry-fields';
import { readAround, type ReadOptions, type SessionReading } from './reading';
import type { Entry, ParsedSession } from '../types';
import type { EntrySeq } from './path';

export type GraphReading = Omit<SessionReading, 'context'>;

/** CA: the context entries, and the issues caProject would report while projecting them. */
function caGraphContext(path: EntrySeq, sink: IssueSink, without: readonly Entry[]): Entry[] {
  caSettingsIssues(path, sink, without);
  const contextEntries = caSelect(path);
  const edits = new Map<unknown, Entry>();
  for (const e of contextEntries) if (e.type === 'context_edit') edits.set(entryTargetId(e), e);
  if (edits.size === 0) return contextEntries;
  contextEntries.forEach((entry, index) => {
    // caProject: a later compaction gives no messages, so an edit of it has nothing to replace.
    const edit = edits.get(entry.id);
    if (!edit || (entry.type === 'compaction' && index > 0) || edit.raw.replacement !== undefined) return;
    // Only an edit without a replacement of an editable message is reported: read that target.
    const editable = caEntryMessages(entry, sink).some(
      (m) => m != null && EDITABLE_ROLES.has((m as { role?: unknown }).role),
    );
    if (editable) sink.malformed(edit, MALFORMED.noReplacement);
  });
  return contextEntries;
}

/** H3: the context entries, and the issues h3State and h3Project would report. */
function h3GraphContext(path: Entry[], sink: IssueSink): Entry[] {
  for (const e of path) {
    if (e.type === 'message') {
      if (messageMissing(e)) sink.malformed(e, MALFORMED.noMessage);
    } else if (e.type === 'active_tools_change' && !spreadLike(e.raw.activeToolNames)) {
      sink.malformed(e, MALFORMED.noToolList);
    }
  }
  const contextEntries = h3Select(path);
  for (const e of contextEntries) {
    if (e.type !== 'compaction' || e.facts?.hasRetainedTailKey === false) continue;
    const tail = e.raw.retainedTail;
    if (tail != null && !spreadLike(tail)) sink.malformed(e, MALFORMED.tailNotList);
  }
  return contextEntries;
}

/** readSession without the context messages (see the module comment). Never throws. */
export function readForGraph(s: ParsedSession, opts: ReadOptions = {}): GraphReading {
  return readAround(s, opts, (path, sink, profile) => ({
    contextEntries:
      profile === 'ca'
        ? caGraphContext(path, sink, s.entriesOf('ca').messagesWithout)
        : h3GraphContext(path.entries, sink),
  })).reading;
}
