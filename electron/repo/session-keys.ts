/**
 * The keys the renderer names sessions by (deep links, copied links). A header id is the key of
 * its file; a copy of a session (same header id) is keyed `<id>~<hash>`, the hash taken from the
 * copy's real path, so a key never comes to name another file when the roots change.
 */
import { createHash } from 'node:crypto';
import { realPathSync } from '../storage/stat';

/** `<id>~` + 8 hex chars of the SHA-256 of the file's real path (its given path if it cannot be resolved). */
export function copyKey(id: string, path: string): string {
  let real = path;
  try {
    real = realPathSync(path);
  } catch {
    // a file that vanished keeps the key of its listed path
  }
  return `${id}~${createHash('sha256').update(real).digest('hex').slice(0, 8)}`;
}

export interface Keyed<T> {
  item: T;
  /** The key shown and used by the renderer. */
  key: string;
  /** Further keys that name the same file (the `~hash` key of the copy that holds the plain id). */
  aliases: string[];
}

/**
 * Keys for items holding a header id and a path. Of copies, the first in path order keeps the
 * plain id (and answers to its `~hash` key too); every other copy is keyed by its `~hash`. An item
 * that `yields` (an uploaded copy) keeps the plain id only when no other item holds that id.
 */
export function assignKeys<T extends { id: string; path: string }>(
  items: readonly T[],
  yields: (item: T) => boolean = () => false,
): Keyed<T>[] {
  const sorted = [...items].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const count = new Map<string, number>();
  const owner = new Map<string, T>();
  for (const s of sorted) {
    count.set(s.id, (count.get(s.id) ?? 0) + 1);
    const first = owner.get(s.id);
    if (!first || (yields(first) && !yields(s))) owner.set(s.id, s);
  }
  return sorted.map((item) => {
    if (count.get(item.id) === 1) return { item, key: item.id, aliases: [] };
    const hashed = copyKey(item.id, item.path);
    if (owner.get(item.id) !== item) return { item, key: hashed, aliases: [] };
    return { item, key: item.id, aliases: [hashed] };
  });
}
