/**
 * The entries of each type other than `message`, in file order, over one profile's entry list
 * (entriesFor). Labels, the session name, the profile guess and the malformed-message check need
 * only these few entries; with this index each reads them instead of every entry of a
 * 400k-entry session on every read. Cached per ParsedSession and profile, extended when entries
 * were appended; an indexed session is seeded by its indexer (built while indexing, no pass).
 */
import { messageMissing } from './entry-fields';
import { entriesFor } from './tree';
import type { Entry, ParsedSession, Profile } from './types';

export interface TypeIndex {
  /** Entries of `type` (never 'message'), in file order. */
  of(type: string): readonly Entry[];
  /** `message` entries without a message, in file order (pi reports them malformed). */
  readonly messagesWithout: readonly Entry[];
}

/** What an indexer collected while indexing `entries[0, count)`. */
export interface TypeIndexSeed {
  count: number;
  byType: Map<string, Entry[]>;
  messagesWithout: Entry[];
}

interface Cached extends TypeIndexSeed {
  entries: Entry[];
}

const NONE: readonly Entry[] = Object.freeze([]);
const caches = { ca: new WeakMap<ParsedSession, Cached>(), h3: new WeakMap<ParsedSession, Cached>() };

/** Files the entry `e` under its type (the one rule both the indexer and the cache use). */
export function fileByType(seed: Omit<TypeIndexSeed, 'count'>, e: Entry): void {
  if (e.type === 'message') {
    if (messageMissing(e)) seed.messagesWithout.push(e);
    return;
  }
  let list = seed.byType.get(e.type);
  if (!list) seed.byType.set(e.type, (list = []));
  list.push(e);
}

/** Hands the index an indexer built for `s.entries` (the CA list; H3's too when it is the same list). */
export function seedTypeIndex(s: ParsedSession, seed: TypeIndexSeed): void {
  const c: Cached = { entries: s.entries, count: seed.count, byType: new Map(), messagesWithout: [...seed.messagesWithout] };
  for (const [type, list] of seed.byType) c.byType.set(type, [...list]);
  caches.ca.set(s, c);
  if (entriesFor(s, 'h3') === s.entries) caches.h3.set(s, c);
}

export function typeIndex(s: ParsedSession, profile: Profile): TypeIndex {
  const entries = entriesFor(s, profile);
  const cache = caches[profile];
  let c = cache.get(s);
  if (!c || c.entries !== entries || c.count > entries.length) {
    c = { entries, count: 0, byType: new Map(), messagesWithout: [] };
    cache.set(s, c);
  }
  for (let i = c.count; i < entries.length; i++) fileByType(c, entries[i]!);
  c.count = entries.length;
  const { byType, messagesWithout } = c;
  return { of: (type) => byType.get(type) ?? NONE, messagesWithout };
}
