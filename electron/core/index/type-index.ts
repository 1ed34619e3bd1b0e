/**
 * The entries of each type other than `message`, in file order, over one profile's entry list
 * (entriesFor). Labels, the session name, the profile guess and the malformed-message check need
 * only these few entries; with this index each reads them instead of every entry of a
 * 400k-entry session on every read. Cached per ParsedSession and profile, extended when entries
 * were appended. An indexed session's lists are its indexer's own (filed while indexing and
 * while following appends), so no entry list is built or walked.
 */
import { messageMissing } from '../rules/entry-fields';
import { entriesFor, indexedSource } from '../rules/tree';
import type { Entry, ParsedSession, Profile } from '../types';

export interface TypeIndex {
  /** Entries of `type` (never 'message'), in file order. */
  of(type: string): readonly Entry[];
  /** `message` entries without a message, in file order (pi reports them malformed). */
  readonly messagesWithout: readonly Entry[];
}

/** Lists filed with fileByType. */
export interface TypeLists {
  byType: Map<string, Entry[]>;
  messagesWithout: Entry[];
}

/** Lists over `entries[0, count)`. */
interface Cached extends TypeLists {
  entries: Entry[];
  count: number;
}

const NONE: readonly Entry[] = Object.freeze([]);
const caches = { ca: new WeakMap<ParsedSession, Cached>(), h3: new WeakMap<ParsedSession, Cached>() };

/** Files the entry `e` under its type (the one rule both the indexer and the cache use). */
export function fileByType(seed: TypeLists, e: Entry): void {
  if (e.type === 'message') {
    if (messageMissing(e)) seed.messagesWithout.push(e);
    return;
  }
  let list = seed.byType.get(e.type);
  if (!list) seed.byType.set(e.type, (list = []));
  list.push(e);
}

const live = new WeakMap<ParsedSession, TypeLists>();

/** The lists an indexer keeps for `s` as it indexes (and follows) the file: used as they are. */
export function seedTypeIndex(s: ParsedSession, lists: TypeLists): void {
  live.set(s, lists);
}

export function typeIndex(s: ParsedSession, profile: Profile): TypeIndex {
  const lists = indexedSource(s, profile) ? live.get(s) : undefined;
  if (lists) return { of: (type) => lists.byType.get(type) ?? NONE, messagesWithout: lists.messagesWithout };
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
