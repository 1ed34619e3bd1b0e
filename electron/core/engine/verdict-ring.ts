/**
 * Validation beside a strict index pass, on a second thread. The file is cut into chunks of CHUNK
 * bytes; a helper thread reads chunks itself (same file, own buffer), from the file's end backwards,
 * validates the whole lines inside each and publishes the byte range it vouches for and the lines
 * in it that are not valid JSON. The indexing thread goes forwards, validating its chunks itself,
 * until it reaches the chunks the helper did: they meet wherever their speeds put them (the helper
 * started later and reads as well), and the indexer waits at most for the one chunk the helper is
 * in the middle of. Only verdicts cross threads: 256 bytes of shared integers a chunk. PURE
 * (Atomics; the thread is started by repo/validate-ahead.ts).
 */

/** Bytes of the file per chunk (one byte less than the SIMD module's window: the byte before it is read too). */
export const CHUNK = (1 << 20) - 1;
/** Chunks with a slot (16 GiB): the helper works on the last ones of a bigger file. */
const MAX_SLOTS = 16_384;

const CLOSED = 0;
/** The chunk the indexer is in. */
const READER_AT = 1;
/** The chunks [FIRST, END) have a slot each (chunk FIRST in slot 0). */
const FIRST = 2;
const END = 3;
const HEADER = 4;

/** Per slot: chunk * 4 + state, one word so a reader never sees one chunk's state with another's number. */
const TAG = 0;
const FROM = 1;
const TO = 2;
const COUNT = 3;
const MAX_BAD = 60;
const SLOT_INTS = 4 + MAX_BAD;

const CLAIMED = 1;
const DONE = 2;

const NEWLINE = 0x0a;
const CR = 0x0d;

/** The shared verdicts for `bytes` of a file (from the pass's start offset). */
export function ringControl(bytes: number): SharedArrayBuffer {
  const end = Math.ceil(bytes / CHUNK);
  const slots = Math.min(end, MAX_SLOTS);
  const control = new SharedArrayBuffer((HEADER + slots * SLOT_INTS) * 4);
  const ctrl = new Int32Array(control);
  ctrl[READER_AT] = -1;
  ctrl[FIRST] = end - slots;
  ctrl[END] = end;
  for (let s = 0; s < slots; s++) ctrl[HEADER + s * SLOT_INTS + TAG] = -1;
  return control;
}

/** The slot of `chunk`, or -1 when it has none. */
function slotOf(ctrl: Int32Array, chunk: number): number {
  const first = ctrl[FIRST]!;
  return chunk >= first && chunk < ctrl[END]! ? HEADER + (chunk - first) * SLOT_INTS : -1;
}

/** The lines of one chunk the helper vouched for: bytes [from, to) of the file, bad line starts. */
interface Verdicts {
  from: number;
  to: number;
  at: number;
  bad: Int32Array;
  cursor: number;
}

/** The indexing thread's side. Lines must be asked in file order. */
export class RingReader {
  private readonly ctrl: Int32Array;
  private chunk = -1;
  private current: Verdicts | null = null;
  private gaveUp = false;

  /** `start`: the file offset chunk 0 begins at; `stallMs`: how long a chunk may take before the helper is given up. */
  constructor(
    control: SharedArrayBuffer,
    private readonly start: number,
    private readonly stallMs = 2000,
  ) {
    this.ctrl = new Int32Array(control);
  }

  /** The line at file offset `offset`, `length` bytes (no '\r'): 1 valid, 0 not, -1 not known (validate it). */
  verdict(offset: number, length: number): number {
    const chunk = Math.floor((offset - this.start) / CHUNK);
    if (chunk !== this.chunk) this.enter(chunk);
    const v = this.current;
    if (!v || offset < v.from || offset + length > v.to) return -1;
    const rel = offset - v.at;
    while (v.cursor < v.bad.length && v.bad[v.cursor]! < rel) v.cursor++;
    return v.cursor < v.bad.length && v.bad[v.cursor] === rel ? 0 : 1;
  }

  /** No more questions: the helper stops. */
  close(): void {
    this.gaveUp = true;
    Atomics.store(this.ctrl, CLOSED, 1);
  }

  private enter(chunk: number): void {
    this.chunk = chunk;
    this.current = null;
    if (this.gaveUp || chunk < 0) return;
    // From here on the helper stops before this chunk unless it already took it.
    Atomics.store(this.ctrl, READER_AT, chunk);
    const base = slotOf(this.ctrl, chunk);
    if (base < 0) return;
    let tag = Atomics.load(this.ctrl, base + TAG);
    if (tag === chunk * 4 + CLAIMED) {
      if (Atomics.wait(this.ctrl, base + TAG, tag, this.stallMs) === 'timed-out') {
        this.close(); // a helper that stalls (or died mid-chunk) is not waited for again
        return;
      }
      tag = Atomics.load(this.ctrl, base + TAG);
    }
    if (tag !== chunk * 4 + DONE) return;
    const at = this.start + chunk * CHUNK;
    const count = this.ctrl[base + COUNT]!;
    const bad = this.ctrl.slice(base + SLOT_INTS - MAX_BAD, base + SLOT_INTS - MAX_BAD + count);
    this.current = { at, from: at + this.ctrl[base + FROM]!, to: at + this.ctrl[base + TO]!, bad, cursor: 0 };
  }
}

/** The helper's reading and validating of chunks (the worker gives it the file and the SIMD module). */
export interface ChunkSource {
  /** Where chunks are read to: the byte before the chunk at [0], the chunk from [1]. */
  readonly bytes: Uint8Array;
  /** Reads chunk `chunk` of the file into `bytes`: how many of its bytes there are (0: past the end). */
  read(chunk: number): number;
  /** Whether bytes[start, end) is a valid line (JsonLineValidator.valid). */
  valid(start: number, end: number): boolean;
  /** The first newline in bytes from `from` on, or -1. */
  newline(from: number): number;
}

/**
 * A ChunkSource over `memory` (CHUNK + 1 bytes at least; a Buffer, whose indexOf is native): chunk k
 * read with `readAt(into, offset, length, position)` from file offset start + k * CHUNK, the byte
 * before it first.
 */
export function chunkSource(
  memory: Uint8Array,
  start: number,
  readAt: (into: Uint8Array, offset: number, length: number, position: number) => number,
  valid: (start: number, end: number) => boolean,
): ChunkSource {
  let bytes = memory;
  return {
    get bytes() {
      return bytes;
    },
    read(chunk) {
      const at = start + chunk * CHUNK;
      let n: number;
      if (chunk === 0) {
        memory[0] = NEWLINE; // the pass starts at a line's start
        n = readAt(memory, 1, CHUNK, at);
      } else n = readAt(memory, 0, CHUNK + 1, at - 1) - 1;
      bytes = memory.subarray(0, 1 + Math.max(0, n));
      return n;
    },
    valid,
    newline: (from) => bytes.indexOf(NEWLINE, from),
  };
}

/** The helper's side: validates chunks from the file's end backwards until it meets the reader, or is closed. */
export function serveRing(control: SharedArrayBuffer, source: ChunkSource): void {
  const ctrl = new Int32Array(control);
  const first = ctrl[FIRST]!;
  for (let chunk = ctrl[END]! - 1; chunk >= first; chunk--) {
    if (Atomics.load(ctrl, CLOSED) !== 0 || chunk <= Atomics.load(ctrl, READER_AT)) return;
    const base = slotOf(ctrl, chunk);
    Atomics.store(ctrl, base + TAG, chunk * 4 + CLAIMED);
    const n = source.read(chunk);
    if (n > 0) validateChunk(source, n, ctrl, base);
    else ctrl[base + FROM] = ctrl[base + TO] = ctrl[base + COUNT] = 0; // shorter than when listed: nothing vouched for
    Atomics.store(ctrl, base + TAG, chunk * 4 + DONE);
    Atomics.notify(ctrl, base + TAG);
  }
}

/** Validates the lines that start and end inside the chunk (bytes[1, 1 + n)) and writes their verdicts. */
function validateChunk(source: ChunkSource, n: number, ctrl: Int32Array, base: number): void {
  // A line starts after a newline; bytes[0] is the byte before the chunk.
  const first = source.newline(0);
  const start = first < 0 ? 1 + n : first + 1;
  let from = start;
  let count = 0;
  for (;;) {
    const nl = source.newline(from);
    if (nl < 0) break;
    const stop = nl > from && source.bytes[nl - 1] === CR ? nl - 1 : nl;
    if (!source.valid(from, stop)) {
      if (count === MAX_BAD) {
        from = start; // too many to list: the reader validates this chunk
        count = 0;
        break;
      }
      ctrl[base + SLOT_INTS - MAX_BAD + count++] = from - 1;
    }
    from = nl + 1;
  }
  // Chunk-relative (bytes[1] is the chunk's first byte).
  ctrl[base + FROM] = start - 1;
  ctrl[base + TO] = from - 1;
  ctrl[base + COUNT] = count;
}
