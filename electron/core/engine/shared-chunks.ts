/**
 * Validation beside a strict index pass, on a second thread, with the file read once. The indexing
 * thread reads the file's chunks into a small ring of shared slots, AHEAD chunks before the one
 * whose lines it indexes; a helper thread takes each chunk as it arrives, validates the whole lines
 * inside it (copied into its SIMD module) and publishes the ones that are not valid JSON. A chunk
 * the helper has not taken when the indexer reaches it is the indexer's to validate: neither
 * thread waits for the other, except for the one chunk the helper is in the middle of. Only a
 * chunk's bytes and 256 bytes of verdicts cross threads. PURE (Atomics; the thread is started by
 * repo/validate-ahead.ts).
 */

/** Bytes per chunk (one less than the SIMD module's window: the byte before the chunk is copied too). */
export const CHUNK = (1 << 20) - 1;
/** Slots in the ring: the chunk being indexed and the ones read ahead of it. */
const SLOTS = 4;
/** Chunks read before the one being indexed (the helper's head start). */
export const AHEAD = SLOTS - 1;

const CLOSED = 0;
/** The indexing thread waits for the helper to finish a chunk: the helper notifies only then. */
const WAITING = 1;
const HEADER = 2;

/** Per slot: chunk * 8 + state in one word (a reader never sees one chunk's state with another's number). */
const TAG = 0;
/** Bytes of the chunk in the slot. */
const LENGTH = 1;
/** The lines the helper vouched for: slot bytes [FROM, TO) (a chunk's first byte is at 1). */
const FROM = 2;
const TO = 3;
const COUNT = 4;
const MAX_BAD = 59;
const SLOT_INTS = 5 + MAX_BAD;

/** The indexing thread wrote the chunk; nobody validates it yet. */
const READY = 1;
/** The helper is validating it. */
const HELPING = 2;
/** The helper's verdicts are in the slot. */
const DONE = 3;
/** The indexing thread validates it (it reached the chunk first, or is done with it). */
const OWN = 4;

const NEWLINE = 0x0a;
const CR = 0x0d;

/** What the two threads share: control words and SLOTS chunks of bytes (the byte before each first). */
export interface SharedChunks {
  control: SharedArrayBuffer;
  data: SharedArrayBuffer;
}

export function sharedChunks(): SharedChunks {
  const control = new SharedArrayBuffer((HEADER + SLOTS * SLOT_INTS) * 4);
  const ctrl = new Int32Array(control);
  for (let s = 0; s < SLOTS; s++) ctrl[HEADER + s * SLOT_INTS + TAG] = -1;
  return { control, data: new SharedArrayBuffer(SLOTS * (CHUNK + 1)) };
}

const baseOf = (chunk: number): number => HEADER + (chunk % SLOTS) * SLOT_INTS;
const tagOf = (chunk: number, state: number): number => chunk * 8 + state;

/** The lines of one chunk the helper vouched for: file bytes [from, to), bad line starts (file offsets). */
interface Verdicts {
  from: number;
  to: number;
  bad: number[];
  cursor: number;
}

/**
 * The indexing thread's side: hands out the slot to read chunk k into, publishes it, and answers
 * for each line (asked in file order) what the helper found. Chunks must be read in order, each
 * starting where the one before ended.
 */
export class ChunkWriter {
  private readonly ctrl: Int32Array;
  private readonly views: Uint8Array[] = [];
  /** File offset of each slot's chunk (this thread's own: reads may be short). */
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  /** Chunks published; the chunk whose verdicts are held. */
  private written = 0;
  private chunk = -1;
  private current: Verdicts | null = null;
  private gaveUp = false;

  /** `stallMs`: how long a chunk may take before the helper is given up. */
  constructor(
    shared: SharedChunks,
    private readonly stallMs = 2000,
  ) {
    this.ctrl = new Int32Array(shared.control);
    for (let s = 0; s < SLOTS; s++) this.views.push(new Uint8Array(shared.data, s * (CHUNK + 1), CHUNK + 1));
  }

  /**
   * Where to read chunk `k` (file offset `at`): bytes [1, 1 + CHUNK) of the returned slot; [0] is
   * set to the byte before it. The chunk that had the slot is settled first (taken back, or waited for).
   */
  slot(k: number, at: number): Uint8Array {
    if (k !== this.written) throw new Error(`chunk ${k} read out of order (expected ${this.written})`);
    if (k >= SLOTS) this.settle(k - SLOTS);
    const view = this.views[k % SLOTS]!;
    // The pass starts at a line's start; a later chunk follows the last byte of the one before.
    view[0] =
      k === 0 ? NEWLINE : this.views[(k - 1) % SLOTS]![this.ends[(k - 1) % SLOTS]! - this.starts[(k - 1) % SLOTS]!]!;
    this.starts[k % SLOTS] = at;
    return view;
  }

  /** Chunk `k` is in its slot: `n` bytes. The helper may take it. */
  ready(k: number, n: number): void {
    this.written = k + 1;
    this.ends[k % SLOTS] = this.starts[k % SLOTS]! + n;
    if (this.gaveUp) return;
    const base = baseOf(k);
    this.ctrl[base + LENGTH] = n;
    // No notify: a wake-up per chunk cost the reading thread more than the helper's polling does.
    Atomics.store(this.ctrl, base + TAG, tagOf(k, READY));
  }

  /** The line at file offset `offset`, `length` bytes (no '\r'): 1 valid, 0 not, -1 not known (validate it). */
  verdict(offset: number, length: number): number {
    // Only the last SLOTS chunks are still in their slots.
    let k = Math.max(this.chunk, this.written - SLOTS, 0);
    while (k < this.written - 1 && offset >= this.ends[k % SLOTS]!) k++;
    if (k !== this.chunk) this.enter(k);
    const v = this.current;
    if (!v || offset < v.from || offset + length > v.to) return -1;
    while (v.cursor < v.bad.length && v.bad[v.cursor]! < offset) v.cursor++;
    return v.cursor < v.bad.length && v.bad[v.cursor] === offset ? 0 : 1;
  }

  /** Whether the helper took chunk `k` (validating it, or done); false once its slot holds a later chunk. */
  taken(k: number): boolean {
    const tag = Atomics.load(this.ctrl, baseOf(k) + TAG);
    return tag === tagOf(k, HELPING) || tag === tagOf(k, DONE);
  }

  /** No more chunks: the helper stops. */
  close(): void {
    this.gaveUp = true;
    Atomics.store(this.ctrl, CLOSED, 1);
    for (let s = 0; s < SLOTS; s++) Atomics.notify(this.ctrl, HEADER + s * SLOT_INTS + TAG);
  }

  private enter(k: number): void {
    this.chunk = k;
    this.current = null;
    if (this.gaveUp || k >= this.written) return;
    const base = baseOf(k);
    if (!this.settle(k)) return;
    const at = this.starts[k % SLOTS]! - 1; // slot byte 1 is the chunk's first
    const bad: number[] = [];
    for (let i = 0, n = this.ctrl[base + COUNT]!; i < n; i++) bad.push(at + this.ctrl[base + SLOT_INTS - MAX_BAD + i]!);
    this.current = { from: at + this.ctrl[base + FROM]!, to: at + this.ctrl[base + TO]!, bad, cursor: 0 };
  }

  /** Makes chunk `k`'s slot this thread's: true when the helper's verdicts are there, false when it validates here. */
  private settle(k: number): boolean {
    if (this.gaveUp) return false;
    const base = baseOf(k);
    const ready = tagOf(k, READY);
    let tag = Atomics.compareExchange(this.ctrl, base + TAG, ready, tagOf(k, OWN));
    if (tag === ready) return false; // not taken by the helper: ours now
    if (tag === tagOf(k, HELPING)) {
      Atomics.store(this.ctrl, WAITING, 1);
      const waited = Atomics.wait(this.ctrl, base + TAG, tag, this.stallMs);
      Atomics.store(this.ctrl, WAITING, 0);
      if (waited === 'timed-out') {
        this.close(); // a helper that stalls (or died mid-chunk) is not waited for again
        return false;
      }
      tag = Atomics.load(this.ctrl, base + TAG);
    }
    return tag === tagOf(k, DONE);
  }
}

/** The helper's validation of a chunk's bytes (the worker gives it the SIMD module). */
export interface ChunkValidator {
  /** Copies a slot (the byte before the chunk, then the chunk) where `valid` reads: bytes [0, length). */
  load(slot: Uint8Array, length: number): void;
  /** Whether loaded bytes [start, end) are a valid line (JsonLineValidator.valid). */
  valid(start: number, end: number): boolean;
  /** The first newline in the loaded bytes from `from` on, before `end`, or -1. */
  newline(from: number, end: number): number;
  /** The loaded byte at `i`. */
  at(i: number): number;
}

/** A ChunkValidator over `memory` (CHUNK + 1 bytes at least; pass a Buffer, whose indexOf is native). */
export function copyingValidator(memory: Uint8Array, valid: (start: number, end: number) => boolean): ChunkValidator {
  return {
    load: (slot, length) => memory.set(slot.subarray(0, length)),
    valid,
    newline(from, end) {
      const nl = memory.indexOf(NEWLINE, from);
      return nl >= end ? -1 : nl;
    },
    at: (i) => memory[i]!,
  };
}

/** The longest pause between polls: a reader that paused (it gives way to other work) costs the helper ~60 wake-ups a second. */
const MAX_POLL_MS = 16;

/**
 * The helper's side: validates chunks as the indexing thread writes them, until it closes the ring.
 * A chunk not written yet is polled for, every `pollMs` at first (the reader is chunks ahead, so
 * it never waits for that), then less often while none comes.
 */
export function serveChunks(shared: SharedChunks, validator: ChunkValidator, pollMs = 0.5): void {
  const ctrl = new Int32Array(shared.control);
  let wait = pollMs;
  for (let k = 0; Atomics.load(ctrl, CLOSED) === 0;) {
    const tag = helpWith(shared, validator, k);
    if (tag === null) {
      k++;
      wait = pollMs;
    } else {
      Atomics.wait(ctrl, baseOf(k) + TAG, tag, wait); // not written yet
      wait = Math.min(MAX_POLL_MS, wait * 2);
    }
  }
}

/**
 * One step of the helper: validates chunk `k` if it is in its slot and nobody took it. Null when
 * the helper is done with `k` (validated, or the indexing thread took it); else the slot's tag, an
 * older chunk's, to wait on.
 */
export function helpWith(shared: SharedChunks, validator: ChunkValidator, k: number): number | null {
  const ctrl = new Int32Array(shared.control);
  const base = baseOf(k);
  const tag = Atomics.load(ctrl, base + TAG);
  if (tag < tagOf(k, 0)) return tag;
  const ready = tagOf(k, READY);
  if (tag === ready && Atomics.compareExchange(ctrl, base + TAG, ready, tagOf(k, HELPING)) === ready) {
    const n = ctrl[base + LENGTH]!;
    const at = (k % SLOTS) * (CHUNK + 1);
    validator.load(new Uint8Array(shared.data, at, 1 + n), 1 + n);
    validateChunk(validator, n, ctrl, base);
    Atomics.store(ctrl, base + TAG, tagOf(k, DONE));
    if (Atomics.load(ctrl, WAITING) !== 0) Atomics.notify(ctrl, base + TAG);
  }
  return null;
}

/** Validates the lines that start and end inside the chunk (loaded bytes [1, 1 + n)) and writes their verdicts. */
function validateChunk(v: ChunkValidator, n: number, ctrl: Int32Array, base: number): void {
  // A line starts after a newline; byte 0 is the byte before the chunk.
  const end = 1 + n;
  const first = v.newline(0, end);
  const start = first < 0 ? end : first + 1;
  let from = start;
  let count = 0;
  for (;;) {
    const nl = v.newline(from, end);
    if (nl < 0) break;
    const stop = nl > from && v.at(nl - 1) === CR ? nl - 1 : nl;
    if (!v.valid(from, stop)) {
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
