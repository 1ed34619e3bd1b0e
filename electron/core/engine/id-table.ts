/**
 * The id index of an indexed session without a string per entry: each entry's id is kept as
 * bytes in one pool and hashed into an open-addressing table (linear probing) that maps an id to
 * its winning entry index (the later line wins, as in both of pi's readers). Ids are looked up
 * from the bytes of a line (indexing) or from a string (everything else); both hash the same
 * code units, so an ASCII id is found either way. A non-ASCII id is kept as a string beside the
 * pool. PURE.
 */

const EMPTY = 0;
/** idLength marker: the id is not ASCII and lives in `wide`. */
const WIDE = 0xffffffff;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

export function hashBytes(b: Uint8Array, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let k = start; k < end; k++) h = Math.imul(h ^ b[k]!, FNV_PRIME);
  return h >>> 0;
}

export function hashText(text: string): number {
  let h = FNV_OFFSET;
  for (let k = 0; k < text.length; k++) h = Math.imul(h ^ text.charCodeAt(k), FNV_PRIME);
  return h >>> 0;
}

function isAscii(text: string): boolean {
  for (let k = 0; k < text.length; k++) if (text.charCodeAt(k) > 0x7f) return false;
  return true;
}

/** Bytes known to be ASCII → string (the storage layer passes a faster one than the default). */
export type DecodeAscii = (b: Uint8Array, start: number, end: number) => string;

export class IdTable {
  /** Entries whose id is recorded (ids of entry 0..count-1). */
  count = 0;
  /** Distinct ids. */
  size = 0;
  private pool = new Uint8Array(64 * 1024);
  private poolUsed = 0;
  private starts = new Uint32Array(1024);
  private lengths = new Uint32Array(1024);
  private hashes = new Uint32Array(1024);
  private readonly wide = new Map<number, string>();
  /** Entry index + 1 per slot (0: empty); a slot holds the id's current winner. */
  private slots: Int32Array;
  private mask: number;

  /** `initialSlots`: a power of two (tests start small to exercise growth and collisions). */
  constructor(
    private readonly decode: DecodeAscii = latin1,
    initialSlots = 2048,
  ) {
    this.slots = new Int32Array(initialSlots);
    this.mask = initialSlots - 1;
  }

  /** Bytes held by the table's buffers (the id bytes, per-entry columns, the slots) and its wide ids. */
  get bytes(): number {
    let n = this.pool.byteLength + this.starts.byteLength + this.lengths.byteLength + this.hashes.byteLength;
    n += this.slots.byteLength;
    for (const id of this.wide.values()) n += 64 + id.length * 2;
    return n;
  }

  /** Records entry `i`'s ASCII id from b[start, end); returns the previous winner's index or -1. */
  addBytes(i: number, b: Uint8Array, start: number, end: number): number {
    const n = end - start;
    this.room(i, n);
    const at = this.poolUsed;
    const pool = this.pool;
    // Copy and hash (hashBytes) in one pass.
    let h = FNV_OFFSET;
    for (let k = 0; k < n; k++) {
      const c = b[start + k]!;
      pool[at + k] = c;
      h = Math.imul(h ^ c, FNV_PRIME);
    }
    this.poolUsed += n;
    this.starts[i] = at;
    this.lengths[i] = n;
    return this.place(i, h >>> 0);
  }

  /** Records entry `i`'s id given as a string; returns the previous winner's index or -1. */
  addText(i: number, id: string): number {
    if (!isAscii(id)) {
      this.room(i, 0);
      this.wide.set(i, id);
      this.starts[i] = 0;
      this.lengths[i] = WIDE;
      return this.place(i, hashText(id));
    }
    const n = id.length;
    this.room(i, n);
    const at = this.poolUsed;
    for (let k = 0; k < n; k++) this.pool[at + k] = id.charCodeAt(k);
    this.poolUsed += n;
    this.starts[i] = at;
    this.lengths[i] = n;
    return this.place(i, hashText(id));
  }

  /** The winning entry index for an ASCII id in b[start, end), or -1. */
  findBytes(b: Uint8Array, start: number, end: number): number {
    const n = end - start;
    const { slots, mask } = this;
    for (let s = hashBytes(b, start, end) & mask; ; s = (s + 1) & mask) {
      const v = slots[s]!;
      if (v === EMPTY) return -1;
      const j = v - 1;
      if (this.lengths[j] === n && this.poolEquals(this.starts[j]!, b, start, n)) return j;
    }
  }

  /** The winning entry index for `id`, or -1. */
  find(id: string): number {
    const { slots, mask } = this;
    for (let s = hashText(id) & mask; ; s = (s + 1) & mask) {
      const v = slots[s]!;
      if (v === EMPTY) return -1;
      if (this.idEquals(v - 1, id)) return v - 1;
    }
  }

  /** True when entries `i` and `j` have the same id. */
  sameId(i: number, j: number): boolean {
    const n = this.lengths[i]!;
    if (n !== this.lengths[j]) return false;
    if (n === WIDE) return this.wide.get(i) === this.wide.get(j);
    return this.poolEquals(this.starts[i]!, this.pool, this.starts[j]!, n);
  }

  /** True when entry `i`'s id is the ASCII text b[start, end). */
  equalsBytes(i: number, b: Uint8Array, start: number, end: number): boolean {
    return this.lengths[i] === end - start && this.poolEquals(this.starts[i]!, b, start, end - start);
  }

  /** Marks each id's winning entry (entries 0..count-1) with 1 in `into`. */
  markWinners(into: Uint8Array): void {
    const slots = this.slots;
    for (let s = 0; s < slots.length; s++) if (slots[s] !== EMPTY) into[slots[s]! - 1] = 1;
  }

  /**
   * Copies entry `i`'s id bytes into `into` at `at` when it is ASCII (kept as bytes) and fits:
   * returns the end; -1 otherwise (read `text(i)`). Printing ids needs no string per id.
   */
  copyAscii(i: number, into: Uint8Array, at: number): number {
    const n = this.lengths[i]!;
    if (n === WIDE || at + n > into.length) return -1;
    const start = this.starts[i]!;
    const pool = this.pool;
    for (let k = 0; k < n; k++) into[at + k] = pool[start + k]!;
    return at + n;
  }

  /** Entry `i`'s id as a string. */
  text(i: number): string {
    const n = this.lengths[i]!;
    if (n === WIDE) return this.wide.get(i)!;
    const at = this.starts[i]!;
    return this.decode(this.pool, at, at + n);
  }

  /**
   * Takes back the last recorded entry (`count - 1`), restoring `previous` (what its add returned)
   * as the winner of its id. With linear probing the last key placed can simply be emptied: every
   * other key was placed while its slot was still free, so no probe sequence runs through it.
   */
  removeLast(previous: number): void {
    const i = this.count - 1;
    const s = this.slotOf(i);
    if (previous >= 0) this.slots[s] = previous + 1;
    else {
      this.slots[s] = EMPTY;
      this.size--;
    }
    if (this.lengths[i] === WIDE) this.wide.delete(i);
    else this.poolUsed = this.starts[i]!;
    this.count = i;
  }

  private slotOf(i: number): number {
    const { slots, mask } = this;
    for (let s = this.hashes[i]! & mask; ; s = (s + 1) & mask) if (slots[s] === i + 1) return s;
  }

  private place(i: number, hash: number): number {
    this.hashes[i] = hash;
    this.count = i + 1;
    const { slots, mask } = this;
    for (let s = hash & mask; ; s = (s + 1) & mask) {
      const v = slots[s]!;
      if (v === EMPTY) {
        slots[s] = i + 1;
        if (++this.size * 2 > slots.length) this.rehash(slots.length * 2, i);
        return -1;
      }
      if (this.hashes[v - 1] === hash && this.sameId(v - 1, i)) {
        slots[s] = i + 1;
        return v - 1;
      }
    }
  }

  /**
   * `size` slots. The last entry recorded (`last`) goes back in last of all, so it is still the
   * last key placed (see removeLast).
   */
  private rehash(size: number, last = -1): void {
    const old = this.slots;
    this.slots = new Int32Array(size);
    this.mask = size - 1;
    let lastIsWinner = false;
    for (let s = 0; s < old.length; s++) {
      const v = old[s]!;
      if (v === last + 1) lastIsWinner = true;
      else if (v !== EMPTY) this.put(v - 1);
    }
    if (lastIsWinner) this.put(last);
  }

  private put(j: number): void {
    const { slots, mask } = this;
    let s = this.hashes[j]! & mask;
    while (slots[s] !== EMPTY) s = (s + 1) & mask;
    slots[s] = j + 1;
  }

  /** Room for `n` entries' ids (their bytes estimated from the ids so far) and their slots. */
  reserve(n: number): void {
    if (n > this.starts.length) this.growEntries(n);
    const perId = this.count > 0 ? Math.ceil(this.poolUsed / this.count) : 16;
    if (n * perId > this.pool.length) this.pool = grown(this.pool, new Uint8Array(n * perId));
    if (n * 2 > this.slots.length) {
      let size = this.slots.length;
      while (size < n * 2) size *= 2;
      this.rehash(size, this.count - 1);
    }
  }

  private room(i: number, bytes: number): void {
    if (i >= this.starts.length) this.growEntries(Math.max(i + 1, this.starts.length * 2));
    if (this.poolUsed + bytes > this.pool.length) {
      this.pool = grown(this.pool, new Uint8Array(Math.max(this.poolUsed + bytes, this.pool.length * 2)));
    }
  }

  private growEntries(n: number): void {
    this.starts = grown(this.starts, new Uint32Array(n));
    this.lengths = grown(this.lengths, new Uint32Array(n));
    this.hashes = grown(this.hashes, new Uint32Array(n));
  }

  private idEquals(j: number, id: string): boolean {
    const n = this.lengths[j]!;
    if (n === WIDE) return this.wide.get(j) === id;
    if (n !== id.length) return false;
    const at = this.starts[j]!;
    const pool = this.pool;
    for (let k = 0; k < n; k++) if (pool[at + k] !== id.charCodeAt(k)) return false;
    return true;
  }

  private poolEquals(at: number, b: Uint8Array, start: number, n: number): boolean {
    const pool = this.pool;
    for (let k = 0; k < n; k++) if (pool[at + k] !== b[start + k]) return false;
    return true;
  }
}

function grown<T extends Uint8Array | Uint32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** The default DecodeAscii. */
function latin1(b: Uint8Array, start: number, end: number): string {
  let out = '';
  for (let k = start; k < end; k += 4096) {
    out += String.fromCharCode.apply(null, b.subarray(k, Math.min(end, k + 4096)) as unknown as number[]);
  }
  return out;
}
