/**
 * The graph's wire names each entry's parent by the index of the first entry with that id
 * (shared/entry-nodes.ts). An indexed session already holds parents as indices, over each id's
 * winner (its last entry): when every id is unique that is its only entry, so the column answers
 * without an id → index map of every entry's id string. PURE.
 */
import { isIndexedEntry } from './indexed-entry';
import type { Entry } from '../types';

/**
 * Entry i's parent as an index (≥ 0) when the index knows it, else a negative number (no parent,
 * or one to look up by its text). Null unless `entries` is a whole store's list with unique ids.
 */
export function indexedParents(entries: readonly Entry[]): ((i: number) => number) | null {
  const first = entries[0];
  const last = entries[entries.length - 1];
  if (!first || !last || !isIndexedEntry(first) || !isIndexedEntry(last)) return null;
  const store = first.store;
  if (last.store !== store || first.i !== 0 || last.i !== entries.length - 1 || store.count !== entries.length)
    return null;
  if (store.idTable.size !== store.count || store.parentsDirty) return null;
  const parents = store.parents;
  return (i) => {
    const p = parents[i]!;
    return p === -3 ? store.resolveParent(i) : p;
  };
}
