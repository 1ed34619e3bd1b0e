/** Fork families of the store report's storage rows, and the parts every row is split into. PURE. */
import type { StorageRowDto } from '../../lib/shared';

export const PARTS = [
  { key: 'image', label: 'images' },
  { key: 'toolOutput', label: 'tool output' },
  { key: 'abandoned', label: 'abandoned branches' },
  { key: 'copied', label: 'copied from fork parent' },
  { key: 'rest', label: 'the rest' },
] as const;

export type PartKey = (typeof PARTS)[number]['key'];

export interface FamilyBytes {
  familyId: string;
  sessions: StorageRowDto[];
  total: number;
  /** The latest write to any member (ISO). */
  lastWrite: string;
  parts: Record<PartKey, number>;
}

const noParts = (): Record<PartKey, number> => ({ image: 0, toolOutput: 0, abandoned: 0, copied: 0, rest: 0 });

export function totalsOf(rows: readonly StorageRowDto[]): Record<PartKey, number> & { total: number } {
  const t = { ...noParts(), total: 0 };
  for (const r of rows) {
    for (const p of PARTS) t[p.key] += r[p.key];
    t.total += r.total;
  }
  return t;
}

/** Families by bytes, largest first. */
export function familiesOf(rows: readonly StorageRowDto[]): FamilyBytes[] {
  const m = new Map<string, FamilyBytes>();
  for (const r of rows) {
    let f = m.get(r.familyId);
    if (!f) m.set(r.familyId, (f = { familyId: r.familyId, sessions: [], total: 0, lastWrite: '', parts: noParts() }));
    f.sessions.push(r);
    f.total += r.total;
    if (r.modifiedAt > f.lastWrite) f.lastWrite = r.modifiedAt;
    for (const p of PARTS) f.parts[p.key] += r[p.key];
  }
  return [...m.values()].sort((a, b) => b.total - a.total);
}

/** True when no member of the family was written in the last `days` days. */
export function isStale(f: FamilyBytes, days: number, nowMs: number): boolean {
  return Date.parse(f.lastWrite) < nowMs - days * 86_400_000;
}
