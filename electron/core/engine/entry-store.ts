/**
 * Entries whose bodies stay on disk. The store keeps every entry's envelope in typed arrays (ids
 * as bytes in an IdTable, parents as indices, type and role as codes, line, offset, timestamp)
 * and creates an entry object only when one is asked for (`entryAt`, `entries`): opening a
 * 500 MB session allocates nothing per entry. `raw` is parsed from the file on first access and
 * kept in a small LRU.
 * PURE: the bytes come from a `LineSource` that the storage layer supplies.
 */
import { IdTable, type DecodeAscii } from './id-table';
import { IndexedEntry, StoreIdIndex, type EntryRows } from './indexed-entry';
import { BodyError, type BodyCacheOptions, type LineSource } from './line-source';
import { parseBounded, tooDeepMessage } from '../rules/json-depth';
import { NameColumn } from './name-column';
import type { Entry, EntryFacts, Issue, IssueKind, ParentTable, WalkState } from '../types';

type Rec = Record<string, unknown>;

const HAS_MESSAGE: EntryFacts = Object.freeze({ hasMessage: true });
const NO_MESSAGE: EntryFacts = Object.freeze({ hasMessage: false });

const FLAG_MESSAGE_KNOWN = 1;
const FLAG_HAS_MESSAGE = 2;

interface Growable extends ArrayLike<number> {
  set(a: ArrayLike<number>): void;
}

function grow<T extends Growable>(a: T, need: number, make: (n: number) => T): T {
  if (need <= a.length) return a;
  const next = make(need);
  next.set(a);
  return next;
}

function isPlainRecord(v: unknown): v is Rec {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function roleOf(raw: Rec): string | undefined {
  const m = raw.message;
  return isPlainRecord(m) && typeof m.role === 'string' ? m.role : undefined;
}

export class EntryStore implements ParentTable, EntryRows {
  count = 0;
  /** Entry objects created so far. */
  created = 0;
  private offsets = new Float64Array(1024);
  private lengths = new Uint32Array(1024);
  private lines = new Uint32Array(1024);
  private flags = new Uint8Array(1024);
  /** Timestamps in pi's canonical ISO form as epoch ms (NaN: the text is in `tsText`). */
  private tsMs = new Float64Array(1024);
  private readonly tsText = new Map<number, string>();
  /**
   * Parent of each entry as an index: -2 no parent (null or ""), -1 missing, -3 not resolved yet.
   * Valid for the CA id index (`byId`) unless `parentsDirty` (a later duplicate id changed a winner).
   */
  parents = new Int32Array(1024);
  parentsDirty = false;
  /** Each entry's id, and the CA id index (later line wins). */
  readonly idTable: IdTable;
  /** The id index as a read-only map (entry objects are created as they are looked up). */
  readonly byId: ReadonlyMap<string, Entry>;
  /** parentId text of the entries whose parent was not found when they were added ("" included). */
  private readonly parentTexts = new Map<number, string>();
  private readonly types = new NameColumn();
  private readonly roles = new NameColumn();
  /**
   * The entry objects created before the entry list was asked for (a few: the leaf, the context,
   * the rarer types), then the list itself: every entry, created as `entries` is first read.
   */
  private readonly early = new Map<number, IndexedEntry>();
  private list: IndexedEntry[] | null = null;
  private marks = new Uint32Array(0);
  private order = new Int32Array(0);
  private epoch = 0;
  private readonly targets = new Map<number, string | null>();
  private readonly compactions = new Map<number, EntryFacts>();
  private readonly strict = new Map<number, IssueKind>();
  private readonly lru = new Map<number, Rec>();
  private lruBytes = 0;
  /** Lines whose body was cut at the nesting limit, each reported once to `issueSink`. */
  private readonly tooDeep = new Set<number>();
  /** Where a body found too deep when first read reports its `too_deep` issue (the session's issues). */
  issueSink: Issue[] | null = null;
  private readonly maxBodies: number;
  private readonly maxBytes: number;
  /** The class of this store's entries (its prototype points back here). */
  readonly Entry: new (id: string, parentId: string | null, type: string, i: number) => IndexedEntry;

  constructor(
    private readonly source: LineSource,
    cache: BodyCacheOptions = {},
    decodeAscii?: DecodeAscii,
  ) {
    this.idTable = new IdTable(decodeAscii);
    this.maxBodies = Math.max(1, cache.maxBodies ?? 2048);
    this.maxBytes = Math.max(1, cache.maxBytes ?? 32 * 1024 * 1024);
    // An explicit constructor: the implicit one forwards `...args`, measurably slower at 400k entries.
    class StoreEntry extends IndexedEntry {
      constructor(id: string, parentId: string | null, type: string, i: number) {
        super(id, parentId, type, i);
      }
    }
    Object.defineProperty(StoreEntry.prototype, 'store', { value: this });
    this.Entry = StoreEntry;
    this.byId = new StoreIdIndex(this);
  }

  /** Every entry, in file order (creates the entry objects not created yet). */
  get entries(): Entry[] {
    let list = this.list;
    if (!list) {
      list = this.list = new Array<IndexedEntry>(this.count);
      for (let i = 0; i < this.count; i++) list[i] = this.early.get(i) ?? this.make(i);
      this.early.clear();
    }
    // Entries appended since the list was built.
    for (let i = list.length; i < this.count; i++) list.push(this.make(i));
    return list;
  }

  /** Entry `i` (one object per index: the same object on every call). */
  entryAt(i: number): IndexedEntry {
    const list = this.list;
    if (list) {
      if (i < list.length) return list[i]!;
      return this.entries[i] as IndexedEntry;
    }
    let e = this.early.get(i);
    if (!e) this.early.set(i, (e = this.make(i)));
    return e;
  }

  private make(i: number): IndexedEntry {
    this.created++;
    return new this.Entry(this.idTable.text(i), this.parentIdOf(i), this.typeOf(i), i);
  }

  idOf(i: number): string {
    return this.list?.[i]?.id ?? this.idTable.text(i);
  }

  typeOf(i: number): string {
    return this.types.get(i)!;
  }

  /** Entry i's parentId as its entry object holds it. */
  parentIdOf(i: number): string | null {
    const text = this.parentTexts.get(i);
    if (text !== undefined) return text;
    const p = this.parents[i]!;
    return p === -2 ? null : this.idOf(p);
  }

  /** Records the parentId text of entry `i` when its parent index was not found (or is ""). */
  setParentText(i: number, parentId: string): void {
    this.parentTexts.set(i, parentId);
  }

  /**
   * Appends one entry's location and facts; returns its index. `tsMs` is the timestamp as epoch ms
   * when `isoMillis` read it, else NaN and `tsText` holds it.
   */
  add(
    offset: number,
    length: number,
    line: number,
    type: string,
    role: string | undefined,
    hasMessage: boolean | undefined,
    tsMs: number,
    tsText: string | undefined,
    parent: number,
  ): number {
    const i = this.count++;
    if (i >= this.offsets.length) this.reserve(this.count);
    this.types.set(i, type);
    this.offsets[i] = offset;
    this.lengths[i] = length;
    this.lines[i] = line;
    this.roles.set(i, role);
    this.flags[i] = hasMessage === undefined ? 0 : FLAG_MESSAGE_KNOWN | (hasMessage ? FLAG_HAS_MESSAGE : 0);
    this.tsMs[i] = tsMs;
    if (tsText !== undefined) this.tsText.set(i, tsText);
    this.parents[i] = parent;
    return i;
  }

  /** Bytes held: the columns (29 bytes a slot, as allocated: not per entry), the id table, names, entry objects. */
  get bytes(): number {
    const rest = this.types.bytes + this.roles.bytes + this.marks.byteLength + this.order.byteLength;
    return this.offsets.length * 29 + this.idTable.bytes + rest + this.created * 160;
  }

  /** Room for `n` entries (at least; grows by doubling). */
  reserve(n: number): void {
    if (n <= this.offsets.length) return;
    n = Math.max(n, this.offsets.length * 2);
    this.offsets = grow(this.offsets, n, (k) => new Float64Array(k));
    this.lengths = grow(this.lengths, n, (k) => new Uint32Array(k));
    this.lines = grow(this.lines, n, (k) => new Uint32Array(k));
    this.flags = grow(this.flags, n, (k) => new Uint8Array(k));
    this.tsMs = grow(this.tsMs, n, (k) => new Float64Array(k));
    this.parents = grow(this.parents, n, (k) => new Int32Array(k));
    this.types.reserve(n);
    this.roles.reserve(n);
    this.idTable.reserve(n);
  }

  /** Epoch ms of the timestamp when the index holds it as a number (NaN: it keeps the text). */
  timestampMsOf(i: number): number {
    return this.tsMs[i]!;
  }

  timestampOf(i: number): string {
    const ms = this.tsMs[i]!;
    return ms === ms ? new Date(ms).toISOString() : (this.tsText.get(i) ?? '');
  }

  /** Entry e's index when it is this store's and its id's winner (the parent column is over winners), else -1. */
  positionOf(e: Entry): number {
    return e instanceof IndexedEntry && e.store === this && this.idTable.find(e.id) === e.i ? e.i : -1;
  }

  /** Parent indices over this store's CA id index and a visit-mark array, for one walk. */
  walkState(): WalkState {
    if (this.parentsDirty) {
      for (let i = 0; i < this.count; i++) {
        const w = this.lookUpParent(i);
        this.parents[i] = w === -1 ? -3 : w;
      }
      this.parentsDirty = false;
    }
    if (this.marks.length < this.count) {
      // A walk visits each entry at most once: `order` (scratch for the visit order) needs as many slots.
      const size = Math.max(this.count, this.marks.length * 2);
      this.marks = new Uint32Array(size);
      this.order = new Int32Array(size);
      this.epoch = 0;
    }
    if (++this.epoch === 0xffffffff) {
      this.marks.fill(0);
      this.epoch = 1;
    }
    return { parents: this.parents, marks: this.marks, epoch: this.epoch, order: this.order };
  }

  /** Resolves a parent left unresolved at index time (it named a later line, or nothing). */
  resolveParent(i: number): number {
    const r = this.lookUpParent(i);
    // A later line may still bring a missing parent: only a found one is final.
    if (r >= 0) this.parents[i] = r;
    return r;
  }

  /** Entry `i`'s parent looked up by id now: its index, -2 for no parent (null or ""), -1 when not found. */
  private lookUpParent(i: number): number {
    const p = this.parentIdOf(i);
    return p ? this.idTable.find(p) : -2;
  }

  setTarget(i: number, target: string | null): void {
    this.targets.set(i, target);
  }

  setCompaction(i: number, facts: EntryFacts): void {
    this.compactions.set(i, facts);
  }

  setStrictInvalid(i: number, kind: IssueKind): void {
    this.strict.set(i, kind);
  }

  get hasStrictInvalid(): boolean {
    return this.strict.size > 0;
  }

  strictInvalidOf(i: number): IssueKind | undefined {
    return this.strict.get(i);
  }

  /** Keeps a body parsed while indexing, so a first access does not read it again. */
  remember(i: number, raw: Rec): void {
    this.cachePut(i, raw);
  }

  /** Forgets entries from index `n` on (a provisional last line taken back). */
  truncate(n: number): void {
    for (let i = n; i < this.count; i++) {
      this.targets.delete(i);
      this.compactions.delete(i);
      this.strict.delete(i);
      this.tsText.delete(i);
      this.parentTexts.delete(i);
      this.early.delete(i);
      this.types.clear(i);
      this.roles.clear(i);
      const cached = this.lru.get(i);
      if (cached) {
        this.lru.delete(i);
        this.lruBytes -= this.lengths[i]!;
      }
    }
    this.count = Math.min(this.count, n);
    if (this.list && this.list.length > n) this.list.length = n;
  }

  lineOf(i: number): number {
    return this.lines[i]!;
  }

  byteRange(i: number): { offset: number; length: number } {
    return { offset: this.offsets[i]!, length: this.lengths[i]! };
  }

  roleOf(i: number): string | undefined {
    return this.roles.get(i);
  }

  targetOf(i: number): string | null | undefined {
    return this.targets.get(i);
  }

  factsOf(i: number): EntryFacts | undefined {
    const flags = this.flags[i]!;
    if (flags & FLAG_MESSAGE_KNOWN) return flags & FLAG_HAS_MESSAGE ? HAS_MESSAGE : NO_MESSAGE;
    return this.compactions.get(i);
  }

  /** The parsed body of entry `e` (index `e.i`), checked against its envelope. */
  body(e: IndexedEntry): Rec {
    const i = e.i;
    const hit = this.lru.get(i);
    if (hit) {
      this.lru.delete(i);
      this.lru.set(i, hit);
      return hit;
    }
    const offset = this.offsets[i]!;
    const length = this.lengths[i]!;
    let text: string;
    try {
      text = this.source.readText(offset, length);
    } catch (err) {
      throw new BodyError(
        'body_unreadable',
        `cannot read line ${e.line}: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    let raw: unknown;
    try {
      const parsed = parseBounded(text);
      raw = parsed.value;
      if (parsed.tooDeep) this.noteTooDeep(e.line, true);
    } catch {
      throw new BodyError('body_invalid', `line ${e.line} is not valid JSON any more (or never was)`);
    }
    // An entry kept despite a bad envelope has normalised fields: only its id can be compared.
    const lenient = this.strict.has(i);
    if (
      !isPlainRecord(raw) ||
      raw.id !== e.id ||
      (!lenient &&
        (raw.parentId !== e.parentId ||
          raw.type !== e.type ||
          raw.timestamp !== e.timestamp ||
          (e.type === 'message' && roleOf(raw) !== e.role)))
    ) {
      throw new BodyError('body_mismatch', `line ${e.line} no longer holds entry ${e.id}`);
    }
    this.cachePut(i, raw);
    return raw;
  }

  /** Line `line` was cut at the nesting limit; `report`: add its issue (once) to `issueSink`. */
  noteTooDeep(line: number, report: boolean): void {
    if (this.tooDeep.has(line)) return;
    this.tooDeep.add(line);
    if (report) this.issueSink?.push({ line, kind: 'too_deep', message: tooDeepMessage(line) });
  }

  private cachePut(i: number, raw: Rec): void {
    const old = this.lru.get(i);
    if (old) {
      this.lru.delete(i);
      this.lruBytes -= this.lengths[i]!;
    }
    this.lru.set(i, raw);
    this.lruBytes += this.lengths[i]!;
    for (const k of this.lru.keys()) {
      if (this.lru.size <= 1 || (this.lru.size <= this.maxBodies && this.lruBytes <= this.maxBytes)) break;
      this.lru.delete(k);
      this.lruBytes -= this.lengths[k]!;
    }
  }
}
