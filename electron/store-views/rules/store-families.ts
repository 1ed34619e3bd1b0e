/**
 * Fork families and the shape of one session's facts, shared by the usage and storage views. PURE.
 *
 * A family is the set of sessions joined by `parentSession` links (pi's /fork, /clone and --fork
 * write the parent's path there). Forks copy entries verbatim (same id and timestamp), so within a
 * family an (id, timestamp) pair is one entry, however many files hold it.
 */
import type { EntryFact, HeaderFact } from './store-facts';

export interface SessionFacts {
  path: string;
  header: HeaderFact;
  entries: EntryFact[];
  /** Bytes of lines that are no entry (header, blank, unreadable). */
  otherBytes: number;
  /** Bytes read (the file's size when it was scanned). */
  sizeBytes: number;
  mtimeMs: number;
}

/** The key that makes two copies of an entry the same entry. */
export const entryKey = (e: { id: string; timestamp: string }): string => `${e.id}\u0000${e.timestamp}`;

/**
 * Families of `count` sessions, given each one's parent index (-1: none or not listed): lists of
 * indices, each family ordered as given (callers sort sessions oldest first).
 */
export function familiesOf(count: number, parentOf: (i: number) => number): number[][] {
  const up = Array.from({ length: count }, (_, i) => i);
  const find = (i: number): number => {
    while (up[i] !== i) {
      up[i] = up[up[i]!]!;
      i = up[i]!;
    }
    return i;
  };
  for (let i = 0; i < count; i++) {
    const p = parentOf(i);
    if (p < 0 || p === i) continue;
    const a = find(i);
    const b = find(p);
    if (a !== b) up[Math.max(a, b)] = Math.min(a, b);
  }
  const groups = new Map<number, number[]>();
  for (let i = 0; i < count; i++) {
    const r = find(i);
    let g = groups.get(r);
    if (!g) groups.set(r, (g = []));
    g.push(i);
  }
  return [...groups.values()];
}

/** Indices of the entries on the session's current path (leaf: the last entry, a `leaf` entry's target). */
export function activePath(s: SessionFacts): Set<number> {
  const out = new Set<number>();
  const last = s.entries[s.entries.length - 1];
  if (!last) return out;
  const byId = new Map<string, number>();
  s.entries.forEach((e, i) => byId.set(e.id, i));
  let id: string | null = last.type === 'leaf' ? (last.targetId ?? null) : last.id;
  while (id !== null) {
    const i = byId.get(id);
    if (i === undefined || out.has(i)) break;
    out.add(i);
    id = s.entries[i]!.parentId;
  }
  return out;
}

/** The real UTC date (YYYY-MM-DD) of an ISO timestamp; '' when it names none (`2026-13-45`, `2026-02-30`). */
export function utcDay(timestamp: string): string {
  const t = Date.parse(timestamp);
  if (Number.isNaN(t)) return '';
  const day = new Date(t).toISOString().slice(0, 10);
  // Date.parse rolls a day past the month's end over (Feb 30 → Mar 2): the text must name the day it parsed to.
  const named = /^(\d{4}-\d{2}-\d{2})T[^+]*Z$/.exec(timestamp);
  return named && named[1] !== day ? '' : day;
}
