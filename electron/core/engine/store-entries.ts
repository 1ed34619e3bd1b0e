/**
 * An indexed session's entries as the rules read them (EntrySource), straight from the index:
 * the store's id index, parent column and envelope columns, and the type lists the indexer files as it goes. No
 * entry list is built or walked unless a rule asks for every entry. PURE.
 */
import type { EntryStore } from './entry-store';
import { ListEntries, NO_ENTRIES, type TypeLists } from '../rules/entries';
import { StoreColumns } from './store-columns';
import type { Entry, EntryColumns, EntrySource, ParentTable, Profile } from '../types';

class StoreEntries implements EntrySource {
  private cols: StoreColumns | null = null;

  constructor(
    private readonly store: EntryStore,
    private readonly typed: TypeLists,
  ) {}

  get count(): number {
    return this.store.count;
  }

  entryAt(i: number): Entry {
    return this.store.entryAt(i);
  }

  get list(): Entry[] {
    return this.store.entries;
  }

  get byId(): ReadonlyMap<string, Entry> {
    return this.store.byId;
  }

  ofType(type: string): readonly Entry[] {
    return this.typed.byType.get(type) ?? NO_ENTRIES;
  }

  get messagesWithout(): readonly Entry[] {
    return this.typed.messagesWithout;
  }

  get parents(): ParentTable {
    return this.store;
  }

  get columns(): EntryColumns {
    return (this.cols ??= new StoreColumns(this.store));
  }
}

/**
 * The two profiles' sources of an indexed session. The store holds CA's entries; H3's are the
 * same while every line passes its envelope check, else a filtered list over them (made then).
 */
export function storeSources(store: EntryStore, typed: TypeLists): (profile: Profile) => EntrySource {
  const all = new StoreEntries(store, typed);
  let strict: ListEntries | null = null;
  return (profile) =>
    profile === 'ca' || !store.hasStrictInvalid ? all : (strict ??= new ListEntries(() => store.entries, true));
}
