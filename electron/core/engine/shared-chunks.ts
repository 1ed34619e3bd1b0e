/**
 * Reading and validation beside a strict index pass, on a second thread. The file is cut into
 * chunks of CHUNK bytes that take turns in a ring of SLOTS shared slots. A helper thread reads each
 * chunk into its slot, up to SLOTS - 1 chunks ahead of the one whose lines the indexing thread
 * visits, and validates the whole lines inside it; the indexing thread then finds the chunk read
 * and judged. A chunk the helper has not taken when the indexing
 * thread reaches it is read and validated there: neither thread waits for the other but for the
 * one chunk the helper is in the middle of. The slots are a shared WebAssembly memory, so the
 * helper's SIMD module validates a chunk where it was read (no copy). Only a tag word, the chunk's
 * length and 256 bytes of verdicts are exchanged. PURE (Atomics; the thread is started by
 * repo/validate-ahead.ts).
 */
import { sharedMemory, STACK_BYTES, type WasmMemory } from '../rules/json-string-simd';

/** Bytes per chunk (one less than the SIMD module's window: the byte before the chunk is read too). */
export const CHUNK = (1 << 20) - 1;
/** Slots in the ring: the chunk being indexed and the ones read ahead of it. */
const SLOTS = 4;

const CLOSED = 0;
/** The indexing thread waits for the helper to finish a chunk: the helper notifies only then. */
const WAITING = 1;
/** The chunk the indexing thread took last. */
const READER_AT = 2;
const HEADER = 3;

/** Per slot: chunk * 8 + state in one word (a reader never sees one chunk's state with another's number). */
const TAG = 0;
/** Bytes of the chunk the helper read (fewer than CHUNK: the file ended there when it read). */
const LENGTH = 1;
/** The lines the helper vouched for: slot bytes [FROM, TO) (a chunk's first byte is at 1). */
const FROM = 2;
const TO = 3;
const COUNT = 4;
const MAX_BAD = 59;
const SLOT_INTS = 5 + MAX_BAD;

/** The slot may take the chunk (the one before in it was indexed). */
const FREE = 1;
/** The helper reads and validates it. */
const HELPING = 2;
/** Its bytes and the helper's verdicts are in the slot. */
const DONE = 3;
/** The indexing thread reads and validates it itself (it reached the chunk first). */
const OWN = 4;

const NEWLINE = 0x0a;
const CR = 0x0d;

/**
 * What the two threads share: control words, and a memory holding SLOTS chunks of bytes (the byte
 * before each first), then the helper's SIMD stack at `stack`.
 */
export interface SharedChunks {
  control: SharedArrayBuffer;
  memory: WasmMemory;
  stack: number;
}

/** The ring, or null where no shared WebAssembly memory can be made (the indexer then works alone). */
export function sharedChunks(): SharedChunks | null {
  const stack = SLOTS * (CHUNK + 1) + 64;
  const memory = sharedMemory(stack + STACK_BYTES);
  if (!memory) return null;
  const control = new SharedArrayBuffer((HEADER + SLOTS * SLOT_INTS) * 4);
  const ctrl = new Int32Array(control);
  ctrl[READER_AT] = -1;
  for (let s = 0; s < SLOTS; s++) ctrl[baseOf(s) + TAG] = tagOf(s, FREE);
  return { control, memory, stack };
}

function baseOf(chunk: number): number {
  return HEADER + (chunk % SLOTS) * SLOT_INTS;
}

function tagOf(chunk: number, state: number): number {
  return chunk * 8 + state;
}

function slotView(shared: SharedChunks, chunk: number): Uint8Array {
  return new Uint8Array(shared.memory.buffer, (chunk % SLOTS) * (CHUNK + 1), CHUNK + 1);
}

/** The lines of the current chunk the helper vouched for: file bytes [from, to), bad line starts (file offsets). */
interface Verdicts {
  from: number;
  to: number;
  bad: number[];
  cursor: number;
}

/** A chunk handed to the indexing thread: bytes [1, 1 + n) of `view`, or n = -1 (read it into [1, 1 + CHUNK) yourself). */
export interface TakenChunk {
  view: Uint8Array;
  n: number;
}

/**
 * The indexing thread's side: takes chunk k (file bytes from start + k * CHUNK) as the helper left
 * it, gives its slot back once its lines were visited, and answers for each line of it what the
 * helper found. Chunks are taken in order, each given back before the next is taken.
 */
export class ChunkReader {
  private readonly ctrl: Int32Array;
  private current: Verdicts | null = null;
  private gaveUp = false;
  private own: Uint8Array | null = null;
  private readonly views: Uint8Array[] = [];

  /** `start`: the file offset of chunk 0 (a line's start); `stallMs`: how long a chunk may take before the helper is given up. */
  constructor(
    shared: SharedChunks,
    private readonly start: number,
    private readonly stallMs = 2000,
  ) {
    this.ctrl = new Int32Array(shared.control);
    for (let s = 0; s < SLOTS; s++) this.views.push(slotView(shared, s));
  }

  take(k: number): TakenChunk {
    this.current = null;
    if (this.gaveUp) return this.alone();
    Atomics.store(this.ctrl, READER_AT, k);
    const base = baseOf(k);
    const free = tagOf(k, FREE);
    let tag = Atomics.compareExchange(this.ctrl, base + TAG, free, tagOf(k, OWN));
    if (tag === free) return { view: this.views[k % SLOTS]!, n: -1 }; // not taken by the helper: ours now
    if (tag === tagOf(k, HELPING)) {
      Atomics.store(this.ctrl, WAITING, 1);
      Atomics.wait(this.ctrl, base + TAG, tag, this.stallMs);
      Atomics.store(this.ctrl, WAITING, 0);
      tag = Atomics.load(this.ctrl, base + TAG);
    }
    // A helper that stalls (or died mid-chunk) is not waited for again, nor its slot written.
    if (tag !== tagOf(k, DONE)) return (this.close(), this.alone());
    const at = this.start + k * CHUNK - 1; // slot byte 1 is the chunk's first
    const bad: number[] = [];
    for (let i = 0, n = this.ctrl[base + COUNT]!; i < n; i++) bad.push(at + this.ctrl[base + SLOT_INTS - MAX_BAD + i]!);
    this.current = { from: at + this.ctrl[base + FROM]!, to: at + this.ctrl[base + TO]!, bad, cursor: 0 };
    return { view: this.views[k % SLOTS]!, n: this.ctrl[base + LENGTH]! };
  }

  /** Chunk k's lines were visited: its slot takes chunk k + SLOTS. */
  release(k: number): void {
    if (!this.gaveUp) Atomics.store(this.ctrl, baseOf(k) + TAG, tagOf(k + SLOTS, FREE));
  }

  /** A line of the chunk taken last, at file offset `offset`, `length` bytes (no '\r'): 1 valid, 0 not, -1 not known (validate it). */
  verdict(offset: number, length: number): number {
    const v = this.current;
    if (!v || offset < v.from || offset + length > v.to) return -1;
    while (v.cursor < v.bad.length && v.bad[v.cursor]! < offset) v.cursor++;
    return v.cursor < v.bad.length && v.bad[v.cursor] === offset ? 0 : 1;
  }

  /** Whether the helper took chunk `k` (reading it, or done); false once its slot holds a later chunk. */
  taken(k: number): boolean {
    const tag = Atomics.load(this.ctrl, baseOf(k) + TAG);
    return tag === tagOf(k, HELPING) || tag === tagOf(k, DONE);
  }

  /** No more chunks: the helper stops. */
  close(): void {
    this.gaveUp = true;
    Atomics.store(this.ctrl, CLOSED, 1);
    for (let s = 0; s < SLOTS; s++) Atomics.notify(this.ctrl, baseOf(s) + TAG);
  }

  /** A buffer of this thread's own, once the helper is given up (its slots may still be written). */
  private alone(): TakenChunk {
    this.own ??= new Uint8Array(CHUNK + 1);
    return { view: this.own, n: -1 };
  }
}

/** The helper's reading and validating of chunks (the worker gives it the file and the SIMD module). */
export interface ChunkSource {
  /** Reads chunk `k` into `slot`: the byte before it at [0], the chunk from [1]; returns the chunk's bytes read. */
  read(k: number, slot: Uint8Array): number;
  /** Whether slot bytes [start, end) are a valid line (JsonLineValidator.valid), judged where they are. */
  valid(slot: Uint8Array, start: number, end: number): boolean;
  /** The first newline in `slot` from `from` on, or -1 (the worker's is native: a typed array's indexOf is ~5× slower). */
  newline(slot: Uint8Array, from: number): number;
}

/** A ChunkSource reading with `readAt` from file offset start + k * CHUNK (the byte before first). */
export function chunkSource(
  start: number,
  readAt: (into: Uint8Array, offset: number, length: number, position: number) => number,
  valid: ChunkSource['valid'],
  newline: ChunkSource['newline'] = (slot, from) => slot.indexOf(NEWLINE, from),
): ChunkSource {
  return {
    read(k, slot) {
      const at = start + k * CHUNK;
      if (k > 0) return Math.max(0, readAt(slot, 0, CHUNK + 1, at - 1) - 1);
      slot[0] = NEWLINE; // the pass starts at a line's start
      return readAt(slot, 1, CHUNK, at);
    },
    valid,
    newline,
  };
}

/** The longest pause between polls: a reader that paused (it gives way to other work) costs the helper ~60 wake-ups a second. */
const MAX_POLL_MS = 16;

/**
 * The helper's side: reads and validates chunks ahead of the indexing thread until the file ends
 * or the ring is closed. A slot not given back yet is polled for, every `pollMs` at first (the
 * indexing thread gives one back a chunk at a time), then less often while none comes.
 */
export function serveChunks(shared: SharedChunks, source: ChunkSource, pollMs = 0.5): void {
  const ctrl = new Int32Array(shared.control);
  let wait = pollMs;
  for (let k = 0; Atomics.load(ctrl, CLOSED) === 0;) {
    const step = helpWith(shared, source, k);
    if (step === 'end') return;
    if (step === 'next') {
      k++;
      wait = pollMs;
    } else {
      Atomics.wait(ctrl, baseOf(k) + TAG, step, wait); // the slot still holds an earlier chunk
      wait = Math.min(MAX_POLL_MS, wait * 2);
    }
  }
}

/**
 * One step of the helper: reads and validates chunk `k` when its slot is free for it. 'next' when
 * the helper is done with `k` (or the indexing thread took it), 'end' when the file ended in it;
 * else the slot's tag, an earlier chunk's, to wait on.
 */
export function helpWith(shared: SharedChunks, source: ChunkSource, k: number): 'next' | 'end' | number {
  const ctrl = new Int32Array(shared.control);
  const base = baseOf(k);
  const tag = Atomics.load(ctrl, base + TAG);
  if (tag < tagOf(k, 0)) return tag;
  const free = tagOf(k, FREE);
  // The chunk after the reader's is left to it: a helper that fell behind would make the reader
  // wait for it chunk after chunk; it goes ahead to where it is ahead again.
  if (tag !== free || k <= Atomics.load(ctrl, READER_AT) + 1) return 'next';
  if (Atomics.compareExchange(ctrl, base + TAG, free, tagOf(k, HELPING)) !== free) return 'next';
  const slot = slotView(shared, k);
  const n = source.read(k, slot);
  ctrl[base + LENGTH] = n;
  if (n > 0) validateChunk(source, slot, n, ctrl, base);
  else ctrl[base + FROM] = ctrl[base + TO] = ctrl[base + COUNT] = 0;
  Atomics.store(ctrl, base + TAG, tagOf(k, DONE));
  if (Atomics.load(ctrl, WAITING) !== 0) Atomics.notify(ctrl, base + TAG);
  // A short chunk is where the file ended when it was read: the indexing thread reads on alone.
  return n < CHUNK ? 'end' : 'next';
}

/** Validates the lines that start and end inside the chunk (slot bytes [1, 1 + n)) and writes their verdicts. */
function validateChunk(v: ChunkSource, slot: Uint8Array, n: number, ctrl: Int32Array, base: number): void {
  // A line starts after a newline; byte 0 is the byte before the chunk.
  const end = 1 + n;
  const newline = (from: number): number => {
    const nl = v.newline(slot, from);
    return nl >= end ? -1 : nl;
  };
  const first = newline(0);
  const start = first < 0 ? end : first + 1;
  let from = start;
  let count = 0;
  for (;;) {
    const nl = newline(from);
    if (nl < 0) break;
    const stop = nl > from && slot[nl - 1] === CR ? nl - 1 : nl;
    if (!v.valid(slot, from, stop)) {
      if (count === MAX_BAD) {
        from = start; // too many to list: the indexing thread validates this chunk
        count = 0;
        break;
      }
      ctrl[base + SLOT_INTS - MAX_BAD + count++] = from;
    }
    from = nl + 1;
  }
  ctrl[base + FROM] = start;
  ctrl[base + TO] = from;
  ctrl[base + COUNT] = count;
}
