import type { KeepRecordDto } from './keep-dto';

/** Every tag in use with its count, most used first (then A→Z). */
export function tagsInUse(records: Readonly<Record<string, KeepRecordDto>>): Array<[tag: string, count: number]> {
  const counts = new Map<string, number>();
  for (const r of Object.values(records)) for (const t of r.tags ?? []) counts.set(t, (counts.get(t) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}
