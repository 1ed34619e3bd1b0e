/**
 * Envelope-level accessors. They prefer the fields parse() copies out of `raw`, so an entry
 * index that loads `raw` lazily only pays for the body when these are missing.
 */
import type { Entry } from './types';

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

/** pi's `new Date(timestamp).getTime()` (NaN when unparsable). */
export function timeOf(timestamp: unknown): number {
  return new Date(timestamp as string).getTime();
}
