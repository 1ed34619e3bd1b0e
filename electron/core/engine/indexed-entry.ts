/**
 * The objects an EntryStore hands out: its entries (envelope fields own, the rest read from the
 * store's columns) and its id index as a read-only Map. PURE.
 */
import type { Entry, EntryFacts, IssueKind } from '../types';

type Rec = Record<string, unknown>;

/** What an entry and the id index read of the store that made them (entry-store.ts's EntryStore). */
export interface EntryRows {
  readonly count: number;
  readonly idTable: { readonly size: number; find(id: string): number };
  /** First-parent columns (first-parents.ts): valid unless `parentsDirty`. */
  readonly parents: Int32Array;
  readonly parentsDirty: boolean;
  resolveParent(i: number): number;
  idOf(i: number): string;
  entryAt(i: number): IndexedEntry;
  timestampOf(i: number): string;
  timestampMsOf(i: number): number;
  /** The entry's line in the file (repo reads a body from it). */
  byteRange(i: number): { offset: number; length: number };
  lineOf(i: number): number;
  body(e: IndexedEntry): Rec;
  roleOf(i: number): string | undefined;
  targetOf(i: number): string | null | undefined;
  factsOf(i: number): EntryFacts | undefined;
  strictInvalidOf(i: number): IssueKind | undefined;
}

/**
 * An entry of an `EntryStore`. Own fields are the envelope and the index; everything else is a
 * getter, so 400k entries cost a few dozen bytes each. `raw` may throw a BodyError.
 */
export class IndexedEntry implements Entry {
  declare readonly store: EntryRows;

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
  constructor(private readonly store: EntryRows) {}

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
