/**
 * Envelope-level accessors. They prefer the fields parse() copies out of `raw`, so an entry
 * index that loads `raw` lazily only pays for the body when these are missing.
 */
import type { Entry } from '../types';

export function entryRole(e: Entry): string | undefined {
  if (e.role !== undefined) return e.role;
  if (e.type !== 'message') return undefined;
  const m = e.raw.message as { role?: unknown } | null | undefined;
  return m && typeof m === 'object' && typeof m.role === 'string' ? m.role : undefined;
}

export function entryTargetId(e: Entry): string | null | undefined {
  if (e.targetId !== undefined) return e.targetId;
  const t = e.raw.targetId;
  return typeof t === 'string' || t === null ? t : undefined;
}

/**
 * The timestamp as the line holds it: for a `strictInvalid` entry `timestamp` is normalised
 * to '', while pi's CA uses whatever was written (a number sorts by its time, missing is NaN).
 */
export function entryTimestamp(e: Entry): unknown {
  return e.strictInvalid ? e.raw.timestamp : e.timestamp;
}

/** pi's `new Date(timestamp).getTime()` (NaN when unparsable). */
export function timeOf(timestamp: unknown): number {
  return new Date(timestamp as string).getTime();
}

/** `message` is null or missing (pi crashes on such an entry while deriving state). */
export function messageMissing(e: Entry): boolean {
  const known = e.facts?.hasMessage;
  if (known !== undefined) return !known;
  return e.raw.message == null;
}

export interface CompactionFacts {
  hasRetainedTailKey: boolean;
  retainedTail: boolean;
  firstKeptEntryId: unknown;
}

/** The compaction fields path walks and context selection need (from the index when it has them). */
export function compactionFacts(e: Entry): CompactionFacts {
  const f = e.facts;
  if (f && f.hasRetainedTailKey !== undefined) {
    return {
      hasRetainedTailKey: f.hasRetainedTailKey,
      retainedTail: f.retainedTail === true,
      firstKeptEntryId: f.firstKeptEntryId,
    };
  }
  const raw = e.raw;
  return {
    hasRetainedTailKey: Object.prototype.hasOwnProperty.call(raw, 'retainedTail'),
    retainedTail: Boolean(raw.retainedTail),
    firstKeptEntryId: raw.firstKeptEntryId,
  };
}
