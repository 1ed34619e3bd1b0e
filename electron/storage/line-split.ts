/**
 * Splitting a stream of chunks into physical lines, with a size limit checked before any line is
 * kept whole. A line longer than `maxLineBytes` is never copied, decoded or handed on as bytes: it
 * is counted as it streams past and reported once (line, offset, length, its longest run of NUL
 * bytes), so a 2 GiB line costs one pass and no memory. V8 cannot make a string past ~512 Mi
 * characters (and aborts the process on some paths past 2 Gi), so a line must be refused before.
 */

/** Lines longer than this (bytes, without the '\n') are reported, not read. */
export const MAX_LINE_BYTES = 256 * 1024 * 1024;

/** A run of NUL bytes (a hole a crash left in the file): where it starts (file offset) and its length. */
export interface NulRun {
  offset: number;
  length: number;
}

/** A line over the limit: never decoded. */
export interface OversizedLine {
  line: number;
  /** File offset of its first byte. */
  offset: number;
  /** Bytes without the '\n'. */
  length: number;
  /** false only for a final line with no '\n'. */
  complete: boolean;
  /** Its longest run of NUL bytes, if it has any. */
  nulRun?: NulRun;
}

const BLOCK = 64 * 1024;
let zeros: Buffer | null = null;

/** Finds the longest run of NUL bytes in a byte stream fed in pieces (memcmp over all-zero blocks). */
export class NulRunTracker {
  private runStart = 0;
  private runLength = 0;
  private best: NulRun | null = null;

  /** b[start, end), whose first byte is at file offset `at`. */
  feed(b: Buffer, start: number, end: number, at: number): void {
    zeros ??= Buffer.alloc(BLOCK);
    let i = start;
    while (i < end) {
      if (b[i] !== 0) {
        this.close();
        const z = b.indexOf(0, i);
        i = z === -1 || z >= end ? end : z;
        continue;
      }
      if (this.runLength === 0) this.runStart = at + (i - start);
      let j = i;
      while (j + BLOCK <= end && zeros.equals(b.subarray(j, j + BLOCK))) j += BLOCK;
      while (j < end && b[j] === 0) j++;
      this.runLength += j - i;
      i = j;
    }
  }

  /** The longest run seen (the current one closed). */
  finish(): NulRun | undefined {
    this.close();
    return this.best ?? undefined;
  }

  private close(): void {
    if (this.runLength > 0 && (!this.best || this.runLength > this.best.length))
      this.best = { offset: this.runStart, length: this.runLength };
    this.runLength = 0;
  }
}

/** Receives a line within the limit: buf[start, end) (reused: copy what must outlive the call). */
export type SplitVisitor = (
  buf: Buffer,
  start: number,
  end: number,
  line: number,
  offset: number,
  complete: boolean,
) => void;

const NEWLINE = 0x0a;

/**
 * The line state between chunks: a line that spans chunks is copied into one reused buffer (that
 * grows to the longest such line within the limit); a line past the limit is only counted.
 */
export class LineSplitter {
  private pending = Buffer.allocUnsafe(0);
  private pendingLength = 0;
  private pendingOffset: number;
  private over: { offset: number; length: number; nul: NulRunTracker } | null = null;
  private lineNo: number;

  constructor(
    private readonly visit: SplitVisitor,
    private readonly onOversized: ((o: OversizedLine) => void) | undefined,
    from: number,
    firstLine: number,
    private readonly maxLineBytes = MAX_LINE_BYTES,
  ) {
    this.pendingOffset = from;
    this.lineNo = firstLine;
  }

  /** Line number of the next line to finish. */
  get nextLine(): number {
    return this.lineNo;
  }

  /** Bytes of an unfinished line carried over (where it starts: `pendingStart`). */
  get pendingBytes(): number {
    return this.over ? this.over.length : this.pendingLength;
  }

  get pendingStart(): number {
    return this.over ? this.over.offset : this.pendingOffset;
  }

  /** chunk[0, n), whose first byte is at file offset `at`. */
  push(chunk: Buffer, n: number, at: number): void {
    let from = 0;
    if (this.over || this.pendingLength > 0) {
      const nl = chunk.indexOf(NEWLINE, 0);
      const stop = nl === -1 || nl >= n ? n : nl;
      if (!this.over && this.pendingLength + stop > this.maxLineBytes)
        this.startOver(this.pending, 0, this.pendingLength, this.pendingOffset);
      if (this.over) {
        this.feedOver(chunk, 0, stop, at);
      } else {
        this.appendPending(chunk, 0, stop);
      }
      if (stop === n) return;
      if (this.over) this.finishOver(true);
      else {
        this.visit(this.pending, 0, this.pendingLength, this.lineNo++, this.pendingOffset, true);
        this.pendingLength = 0;
      }
      from = stop + 1;
    }
    const max = this.maxLineBytes;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, from);
      if (nl === -1 || nl >= n) break;
      if (nl - from > max) {
        this.startOver(chunk, from, nl, at + from);
        this.finishOver(true);
      } else {
        this.visit(chunk, from, nl, this.lineNo++, at + from, true);
      }
      from = nl + 1;
    }
    if (from < n) {
      if (n - from > max) this.startOver(chunk, from, n, at + from);
      else {
        this.pendingOffset = at + from;
        this.pendingLength = 0;
        this.appendPending(chunk, from, n);
      }
    }
  }

  /** End of the stream: the last line without its '\n', if any. */
  finish(): void {
    if (this.over) this.finishOver(false);
    else if (this.pendingLength > 0)
      this.visit(this.pending, 0, this.pendingLength, this.lineNo, this.pendingOffset, false);
  }

  private appendPending(src: Buffer, start: number, end: number): void {
    const needed = this.pendingLength + (end - start);
    if (needed > this.pending.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.pending.length * 2, 64 * 1024));
      this.pending.copy(grown, 0, 0, this.pendingLength);
      this.pending = grown;
    }
    src.copy(this.pending, this.pendingLength, start, end);
    this.pendingLength = needed;
  }

  private startOver(b: Buffer, start: number, end: number, offset: number): void {
    this.over = { offset, length: 0, nul: new NulRunTracker() };
    this.pendingLength = 0;
    // The carried-over buffer is not kept for a line that will never be read.
    if (b === this.pending) this.pending = Buffer.allocUnsafe(0);
    this.feedOver(b, start, end, offset);
  }

  private feedOver(b: Buffer, start: number, end: number, at: number): void {
    const o = this.over!;
    o.nul.feed(b, start, end, at);
    o.length += end - start;
  }

  private finishOver(complete: boolean): void {
    const o = this.over!;
    this.over = null;
    const nulRun = o.nul.finish();
    const line = complete ? this.lineNo++ : this.lineNo;
    this.onOversized?.({ line, offset: o.offset, length: o.length, complete, ...(nulRun ? { nulRun } : {}) });
  }
}
