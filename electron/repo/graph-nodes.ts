/**
 * A session's graph nodes, packed for the wire (shared/entry-nodes.ts) and kept with the session's
 * entry list: they depend on the entries and their previews only (not on the profile or the leaf),
 * so opening the same session again sends the packed columns without building them again.
 */
import { isIndexedEntry, type Entry, type EntryPreview } from '../core';
import { indexPreview } from './previews';
import { packNodes, type EntryNodesDto } from '../shared/entry-nodes';

interface Packed {
  /** The entries and previews they were packed from (an append or a replaced line makes them stale). */
  entries: Entry[];
  previews: EntryPreview[];
  nodes: EntryNodesDto;
}

const cache = new WeakMap<Entry[], Packed>();

function same(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** `entries` with their previews (index i ↔ entry i), packed; reused while both are unchanged. */
export function packedNodes(entries: Entry[], previews: readonly EntryPreview[]): EntryNodesDto {
  const hit = cache.get(entries);
  if (hit && same(hit.entries, entries) && same(hit.previews, previews)) return hit.nodes;
  const nodes = packNodes(entries, previews, epochMs(entries));
  cache.set(entries, { entries: entries.slice(), previews: previews.slice(), nodes });
  return nodes;
}

const fromIndex = new WeakMap<Entry[], { entries: Entry[]; nodes: EntryNodesDto }>();

/** `entries` with what the index alone knows of each (previews.ts indexPreview), packed; reused while unchanged. */
export function indexNodes(entries: Entry[]): EntryNodesDto {
  const hit = fromIndex.get(entries);
  if (hit && same(hit.entries, entries)) return hit.nodes;
  const nodes = packNodes(entries, entries.map(indexPreview), epochMs(entries));
  fromIndex.set(entries, { entries: entries.slice(), nodes });
  return nodes;
}

/** Epoch ms of entry i's timestamp from the index (NaN when it is not an indexed entry, or kept as text). */
function epochMs(entries: Entry[]): (i: number) => number {
  return (i) => {
    const e = entries[i]!;
    return isIndexedEntry(e) ? e.store.timestampMsOf(e.i) : NaN;
  };
}
