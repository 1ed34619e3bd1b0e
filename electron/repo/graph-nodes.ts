/**
 * A session's graph nodes, packed for the wire (shared/entry-nodes.ts) and kept by the session's
 * owner (session-store.ts): they depend on the entries and their previews only (not on the profile
 * or the leaf), so opening the same session again sends the packed columns without building them again.
 */
import { indexedParents, isIndexedEntry, type Entry, type EntryPreview } from '../core';
import { indexPreview } from './session-bodies';
import { packNodes, type EntryNodesDto } from '../shared/entry-nodes';

interface Packed {
  /** The entries (and previews) they were packed from (an append or a replaced line makes them stale). */
  entries: Entry[];
  previews: readonly EntryPreview[] | null;
  nodes: EntryNodesDto;
}

/** Per packed node: its id, preview text and columns, a rough figure. */
const BYTES_PER_NODE = 160;

function same(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Epoch ms of entry i's timestamp from the index (NaN when it is not an indexed entry, or kept as text). */
function epochMs(entries: Entry[]): (i: number) => number {
  return (i) => {
    const e = entries[i]!;
    return isIndexedEntry(e) ? e.store.timestampMsOf(e.i) : NaN;
  };
}

/** The packed nodes of one open session: with full previews, and from the index alone. */
export class GraphNodes {
  private full: Packed | null = null;
  private fromIndex: Packed | null = null;

  /** An estimate of the memory held. */
  get bytes(): number {
    return ((this.full?.entries.length ?? 0) + (this.fromIndex?.entries.length ?? 0)) * BYTES_PER_NODE;
  }

  /** `entries` with their previews (index i ↔ entry i), packed; reused while both are unchanged. */
  packed(entries: Entry[], previews: readonly EntryPreview[]): EntryNodesDto {
    const hit = this.full;
    if (hit && same(hit.entries, entries) && same(hit.previews!, previews)) return hit.nodes;
    const nodes = packNodes(entries, previews, epochMs(entries), indexedParents(entries) ?? undefined);
    this.full = { entries: entries.slice(), previews: previews.slice(), nodes };
    return nodes;
  }

  /** `entries` with what the index alone knows of each (session-bodies.ts indexPreview), packed; reused while unchanged. */
  indexed(entries: Entry[]): EntryNodesDto {
    const hit = this.fromIndex;
    if (hit && same(hit.entries, entries)) return hit.nodes;
    const nodes = packNodes(
      entries,
      (i) => indexPreview(entries[i]!),
      epochMs(entries),
      indexedParents(entries) ?? undefined,
    );
    this.fromIndex = { entries: entries.slice(), previews: null, nodes };
    return nodes;
  }
}
