/**
 * A session's entries as pi's readers hold them, over the plain array parseSession builds: the
 * EntrySource the rules read (the index engine implements the same interface over its columns).
 * Both of pi's readers index ids with the later line winning; H3's reader holds only the entries
 * that pass its envelope check. PURE.
 */
import { messageMissing } from './entry-fields';
import type { Entry, EntrySource, ParsedSession, Profile } from '../types';

/** Entries of the rarer types, and the messages without a message (see EntrySource.ofType). */
export interface TypeLists {
  byType: Map<string, Entry[]>;
  messagesWithout: Entry[];
}

export const NO_ENTRIES: readonly Entry[] = Object.freeze([]);

/** Files entry `e` under its type (the one rule both sources use); a message with its message is not listed. */
export function fileByType(lists: TypeLists, e: Entry): void {
  if (e.type === 'message') {
    if (messageMissing(e)) lists.messagesWithout.push(e);
    return;
  }
  let list = lists.byType.get(e.type);
  if (!list) lists.byType.set(e.type, (list = []));
  list.push(e);
}

/**
 * One profile's entries over an array that only grows (`all()` gives it; a new or shorter array
 * starts over). The id index and the type lists are built on first use and extended on appends.
 * H3's source (`strict`) uses CA's (`base`) lists while every entry passes its check.
 */
export class ListEntries implements EntrySource {
  private source: Entry[] | null = null;
  /** Entries of `source` taken in. */
  private seen = 0;
  /** H3 with entries its check rejects: the entries it keeps (null: all of `source`). */
  private kept: Entry[] | null = null;
  private ids = new Map<string, Entry>();
  private typed: TypeLists = { byType: new Map(), messagesWithout: [] };

  constructor(
    private readonly all: () => Entry[],
    private readonly strict: boolean,
    private readonly base?: ListEntries,
  ) {}

  get list(): Entry[] {
    const entries = this.all();
    if (entries !== this.source || this.seen > entries.length) {
      this.source = entries;
      this.seen = 0;
      this.kept = null;
      this.ids = new Map();
      this.typed = { byType: new Map(), messagesWithout: [] };
    }
    for (let i = this.seen; i < entries.length; i++) {
      const e = entries[i]!;
      if (this.strict && e.strictInvalid) {
        if (!this.kept) {
          this.kept = entries.slice(0, i);
          if (this.base) for (const k of this.kept) this.take(k);
        }
        continue;
      }
      this.kept?.push(e);
      if (this.kept || !this.base) this.take(e);
    }
    this.seen = entries.length;
    return this.kept ?? entries;
  }

  private take(e: Entry): void {
    this.ids.set(e.id, e);
    fileByType(this.typed, e);
  }

  /** The source whose lists describe this one's entries (synced). */
  private get lists(): ListEntries {
    void this.list;
    return this.base && this.kept === null ? this.base : this;
  }

  get count(): number {
    return this.list.length;
  }

  entryAt(i: number): Entry {
    return this.list[i]!;
  }

  get byId(): ReadonlyMap<string, Entry> {
    const { lists } = this;
    void lists.list;
    return lists.ids;
  }

  ofType(type: string): readonly Entry[] {
    const { lists } = this;
    void lists.list;
    return lists.typed.byType.get(type) ?? NO_ENTRIES;
  }

  get messagesWithout(): readonly Entry[] {
    const { lists } = this;
    void lists.list;
    return lists.typed.messagesWithout;
  }
}

/** The two profiles' sources over one array (H3's made when first asked for). */
export function listSources(all: () => Entry[]): (profile: Profile) => EntrySource {
  const ca = new ListEntries(all, false);
  let h3: ListEntries | null = null;
  return (profile) => (profile === 'ca' ? ca : (h3 ??= new ListEntries(all, true, ca)));
}

/** A session over its own `entries` array (what parseSession returns). */
export function plainSession(fields: Omit<ParsedSession, 'entriesOf'>): ParsedSession {
  const s = fields as ParsedSession;
  s.entriesOf = listSources(() => s.entries);
  return s;
}

/** The entries a profile's reader holds, in file order (CA: `s.entries` itself). */
export function entriesFor(s: ParsedSession, profile: Profile): Entry[] {
  return s.entriesOf(profile).list;
}

/** id → entry over the profile's entries (default: CA's index), the later line winning. */
export function indexById(s: ParsedSession, profile: Profile = 'ca'): ReadonlyMap<string, Entry> {
  return s.entriesOf(profile).byId;
}

/** The last of the profile's entries (an indexed session creates no other). */
export function lastEntry(s: ParsedSession, profile: Profile): Entry | undefined {
  const src = s.entriesOf(profile);
  return src.count > 0 ? src.entryAt(src.count - 1) : undefined;
}
