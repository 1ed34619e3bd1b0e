import type { TreeIndex } from '../../../model/tree-index';

/**
 * Entries whose preview text or id contains every whitespace-separated token (case-insensitive),
 * in display order. Like pi's /tree search, but over all entries: the caller makes a hit visible.
 */
export function searchEntries(index: TreeIndex, query: string, limit = 5000): string[] {
  const tokens = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (tokens.length === 0) return [];
  const out: string[] = [];
  for (const i of index.order) {
    const e = index.entries[i]!;
    const id = e.id;
    const hay = `${e.id} ${e.preview} ${e.customType ?? ''} ${e.toolNames?.join(' ') ?? ''}`.toLowerCase();
    if (tokens.every((t) => hay.includes(t))) {
      out.push(id);
      if (out.length >= limit) break;
    }
  }
  return out;
}
