/**
 * Entries whose bodies stay on disk. An indexed entry holds its envelope (id, parentId, type,
 * timestamp) as fields; its line number, role, targetId and body facts live in typed arrays and
 * small maps of the store; `raw` is parsed from the file on first access and kept in a small LRU.
 * PURE: the bytes come from a `LineSource` that the storage layer supplies.
 */
import type { Entry, EntryFacts, IssueKind } from './types';

type Rec = Record<string, unknown>;

/** Reads the text of one line back from the file (synchronously; the getter `raw` is sync). */
export interface LineSource {
  /** UTF-8 text of the bytes [offset, offset + length). Throws when the file can no longer be read. */
  readText(offset: number, length: number): string;
}

/**
 * A body that no longer matches its envelope, or is not JSON: the file changed under the index
 * (rewritten or replaced) or a line looked like pi's shape without being valid JSON. Reopen the
 * file (with `verify: 'parse'` after 'body_invalid').
 */
export class BodyError extends Error {
  constructor(
    readonly code: 'body_invalid' | 'body_mismatch' | 'body_unreadable',
    message: string,
  ) {
    super(message);
    this.name = 'BodyError';
  }
}

export interface BodyCacheOptions {
  /** Parsed bodies kept (default 2048). */
  maxBodies?: number;
  /** Source bytes of the kept bodies (default 32 MiB). */
  maxBytes?: number;
}

const HAS_MESSAGE: EntryFacts = Object.freeze({ hasMessage: true });
const NO_MESSAGE: EntryFacts = Object.freeze({ hasMessage: false });

const FLAG_MESSAGE_KNOWN = 1;
const FLAG_HAS_MESSAGE = 2;

interface Growable extends ArrayLike<number> {
  set(a: ArrayLike<number>): void;
}

function grow<T extends Growable>(a: T, need: number, make: (n: number) => T): T {
  if (need <= a.length) return a;
  const next = make(Math.max(need, a.length * 2, 1024));
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

export class EntryStore {
  count = 0;
  private offsets = new Float64Array(1024);
  private lengths = new Uint32Array(1024);
  private lines = new Uint32Array(1024);
  private roles = new Uint16Array(1024);
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
  /** The indexer's entry list and id index (the CA index, later line wins). */
  entries: Entry[] = [];
  /** `entries[i].id`, side by side: a long path's ids are read without touching each entry object. */
  readonly ids: string[] = [];
  byId: Map<string, Entry> = new Map();
  private marks = new Uint32Array(0);
  private order = new Int32Array(0);
  private epoch = 0;
  private readonly roleNames: string[] = [];
  private readonly roleCodes = new Map<string, number>();
  private readonly targets = new Map<number, string | null>();
  private readonly compactions = new Map<number, EntryFacts>();
  private readonly strict = new Map<number, IssueKind>();
  private readonly lru = new Map<number, Rec>();
  private lruBytes = 0;
  private readonly maxBodies: number;
  private readonly maxBytes: number;
  /** The class of this store's entries (its prototype points back here). */
  readonly Entry: new (id: string, parentId: string | null, type: string, i: number) => IndexedEntry;

  constructor(
    private readonly source: LineSource,
    cache: BodyCacheOptions = {},
  ) {
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
  }

  /**
   * Appends one entry's location and facts; returns its index. `tsMs` is the timestamp as epoch ms
   * when `isoMillis` read it, else NaN and `tsText` holds it.
   */
  add(
    offset: number, length: number, line: number, role: string | undefined, hasMessage: boolean | undefined,
    tsMs: number, tsText: string | undefined, parent: number,
  ): number {
    const i = this.count++;
    if (i >= this.offsets.length) {
      const n = this.count;
      this.offsets = grow(this.offsets, n, (k) => new Float64Array(k));
      this.lengths = grow(this.lengths, n, (k) => new Uint32Array(k));
      this.lines = grow(this.lines, n, (k) => new Uint32Array(k));
      this.roles = grow(this.roles, n, (k) => new Uint16Array(k));
      this.flags = grow(this.flags, n, (k) => new Uint8Array(k));
      this.tsMs = grow(this.tsMs, n, (k) => new Float64Array(k));
      this.parents = grow(this.parents, n, (k) => new Int32Array(k));
    }
    this.offsets[i] = offset;
    this.lengths[i] = length;
    this.lines[i] = line;
    this.roles[i] = role === undefined ? 0 : this.roleCode(role);
    this.flags[i] = hasMessage === undefined ? 0 : FLAG_MESSAGE_KNOWN | (hasMessage ? FLAG_HAS_MESSAGE : 0);
    this.tsMs[i] = tsMs;
    if (tsText !== undefined) this.tsText.set(i, tsText);
    this.parents[i] = parent;
    return i;
  }

  timestampOf(i: number): string {
    const ms = this.tsMs[i]!;
    return ms === ms ? new Date(ms).toISOString() : (this.tsText.get(i) ?? '');
  }

  /**
   * Parent indices and a visit-mark array for one walk over this store's CA id index, or null when
   * the walk must use the id map (another index, or entries H3 drops are present).
   */
  walkState(byId: Map<string, Entry>): { parents: Int32Array; marks: Uint32Array; epoch: number; order: Int32Array } | null {
    if (byId !== this.byId) return null;
    if (this.parentsDirty) {
      for (let i = 0; i < this.count; i++) {
        const p = this.entries[i]!.parentId;
        const w = p ? this.byId.get(p) : undefined;
        this.parents[i] = !p ? -2 : w ? (w as IndexedEntry).i : -3;
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
    const p = this.entries[i]!.parentId;
    const w = p ? this.byId.get(p) : undefined;
    const r = !p ? -2 : w ? (w as IndexedEntry).i : -1;
    // A later line may still bring a missing parent: only a found one is final.
    if (r >= 0) this.parents[i] = r;
    return r;
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
      const cached = this.lru.get(i);
      if (cached) {
        this.lru.delete(i);
        this.lruBytes -= this.lengths[i]!;
      }
    }
    this.count = Math.min(this.count, n);
    if (this.ids.length > n) this.ids.length = n;
  }

  lineOf(i: number): number {
    return this.lines[i]!;
  }

  byteRange(i: number): { offset: number; length: number } {
    return { offset: this.offsets[i]!, length: this.lengths[i]! };
  }

  roleOf(i: number): string | undefined {
    const code = this.roles[i]!;
    return code === 0 ? undefined : this.roleNames[code - 1];
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
      throw new BodyError('body_unreadable', `cannot read line ${e.line}: ${err instanceof Error ? err.message : String(err)}`);
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new BodyError('body_invalid', `line ${e.line} is not valid JSON any more (or never was)`);
    }
    // An entry kept despite a bad envelope has normalised fields: only its id can be compared.
    const lenient = this.strict.has(i);
    if (
      !isPlainRecord(raw) ||
      raw.id !== e.id ||
      (!lenient &&
        (raw.parentId !== e.parentId || raw.type !== e.type || raw.timestamp !== e.timestamp || (e.type === 'message' && roleOf(raw) !== e.role)))
    ) {
      throw new BodyError('body_mismatch', `line ${e.line} no longer holds entry ${e.id}`);
    }
    this.cachePut(i, raw);
    return raw;
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

  private roleCode(role: string): number {
    let code = this.roleCodes.get(role);
    if (code === undefined) {
      this.roleNames.push(role);
      code = this.roleNames.length;
      this.roleCodes.set(role, code);
    }
    return code;
  }
}

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

function twoDigits(b: Uint8Array, at: number): number {
  const x = b[at]! - 48;
  const y = b[at + 1]! - 48;
  return x >= 0 && x <= 9 && y >= 0 && y <= 9 ? x * 10 + y : -1;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Epoch ms of a timestamp written exactly as `Date.prototype.toISOString` writes it
 * (YYYY-MM-DDTHH:MM:SS.mmmZ, years 0000–9999, a real calendar date), so that
 * `new Date(ms).toISOString()` gives the same text back; NaN for anything else.
 */
export function isoMillis(b: Uint8Array, s: number, e: number): number {
  if (e - s !== 24 || b[s + 4] !== 45 || b[s + 7] !== 45 || b[s + 10] !== 84 || b[s + 13] !== 58 || b[s + 16] !== 58 || b[s + 19] !== 46 || b[s + 23] !== 90) {
    return NaN;
  }
  const hi = twoDigits(b, s);
  const lo = twoDigits(b, s + 2);
  const mo = twoDigits(b, s + 5);
  const d = twoDigits(b, s + 8);
  const h = twoDigits(b, s + 11);
  const mi = twoDigits(b, s + 14);
  const sec = twoDigits(b, s + 17);
  const ms1 = twoDigits(b, s + 20);
  const ms2 = b[s + 22]! - 48;
  if (hi < 0 || lo < 0 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 59 || ms1 < 0 || ms2 < 0 || ms2 > 9) {
    return NaN;
  }
  const y = hi * 100 + lo;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  if (d > (mo === 2 && leap ? 29 : DAYS_IN_MONTH[mo - 1]!)) return NaN;
  // days from civil (H. Hinnant), proleptic Gregorian
  const yy = mo <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  const days = era * 146097 + doe - 719468;
  return days * 86_400_000 + h * 3_600_000 + mi * 60_000 + sec * 1000 + ms1 * 10 + ms2;
}
