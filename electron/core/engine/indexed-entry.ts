/**
 * The objects an EntryStore hands out: its entries (envelope fields own, the rest read from the
 * store's columns) and its id index as a read-only Map. PURE.
 */
import type { EntryStore } from './entry-store';
import type { Entry, EntryFacts, IssueKind } from '../types';

type Rec = Record<string, unknown>;

/**
 * An entry of an `EntryStore`. Own fields are the envelope and the index; everything else is a
 * getter, so 400k entries cost a few dozen bytes each. `raw` may throw a BodyError.
 */
export class IndexedEntry implements Entry {
  declare readonly store: EntryStore;

  constructor(
    public id: string,
    public parentId: string | null,
    public type: string,
    readonly i: number,
  ) {}

  get timestamp(): string {
    return this.store.timestampOf(this.i);
  }

  get line(): number {
    return this.store.lineOf(this.i);
  }

  get raw(): Rec {
    return this.store.body(this);
  }

  get role(): string | undefined {
    return this.store.roleOf(this.i);
  }

  get targetId(): string | null | undefined {
    return this.store.targetOf(this.i);
  }

  get facts(): EntryFacts | undefined {
    return this.store.factsOf(this.i);
  }

  get strictInvalid(): IssueKind | undefined {
    return this.store.strictInvalidOf(this.i);
  }
}

export function isIndexedEntry(e: Entry): e is IndexedEntry {
  return e instanceof IndexedEntry;
}

/** The store's id index as a read-only Map: id → winning entry, in the order ids first appeared. */
export class StoreIdIndex implements ReadonlyMap<string, Entry> {
  constructor(private readonly store: EntryStore) {}

  get size(): number {
    return this.store.idTable.size;
  }

  get(id: string): Entry | undefined {
    const j = this.store.idTable.find(id);
    return j < 0 ? undefined : this.store.entryAt(j);
  }

  has(id: string): boolean {
    return this.store.idTable.find(id) >= 0;
  }

  *entries(): MapIterator<[string, Entry]> {
    const seen = new Set<string>();
    for (let i = 0; i < this.store.count; i++) {
      const id = this.store.idOf(i);
      if (seen.has(id)) continue;
      seen.add(id);
      yield [id, this.store.entryAt(this.store.idTable.find(id))];
    }
  }

  *keys(): MapIterator<string> {
    for (const [k] of this.entries()) yield k;
  }

  *values(): MapIterator<Entry> {
    for (const [, v] of this.entries()) yield v;
  }

  [Symbol.iterator](): MapIterator<[string, Entry]> {
    return this.entries();
  }

  forEach(fn: (value: Entry, key: string, map: ReadonlyMap<string, Entry>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this);
  }
}
