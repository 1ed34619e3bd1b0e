/**
 * Byte-level line streaming for indexing big files, and synchronous reads of single lines back.
 *
 * `scanLines` hands every physical line to a callback as a byte range of a reused buffer (no
 * string per line, no whole-file string), reading 1 MiB chunks into one reused buffer. A line that
 * spans chunks is copied once into a second reused buffer; a line past the size limit is never
 * kept (line-split.ts). Only regular files are read (regular-file.ts). Progress is reported per chunk; the
 * event loop gets a turn every few tens of milliseconds; an AbortSignal stops between chunks.
 */
import { isAscii } from 'node:buffer';
import { closeSync, readSync } from 'node:fs';
import type { ReadScratch } from './line-chunks';
import { LineSplitter, MAX_LINE_BYTES, type OversizedLine } from './line-split';
import { openRegularSync } from './regular-file';

export type { OversizedLine } from './line-split';

export interface ScanOptions {
  /** Byte offset to start at (the start of a line). Default 0. */
  fromOffset?: number;
  /** Line number of the line at `fromOffset`. Default 1. */
  firstLine?: number;
  /** Default 1 MiB. */
  chunkSize?: number;
  signal?: AbortSignal;
  /** The event loop gets a turn after this much scanning (ms). Default 25. */
  sliceMs?: number;
  /** Called after each chunk with the bytes read so far and the bytes to read (both from `fromOffset`). */
  onProgress?: (bytesRead: number, totalBytes: number) => void;
  /** Asked at each turn given to the event loop: a promise makes the scan wait there (the search
   * index gives way, mid-file, while a session opens). */
  pause?: () => Promise<void> | null;
  /** Lines longer than this are never handed to the visitor (default MAX_LINE_BYTES, line-split.ts). */
  maxLineBytes?: number;
  /** Told of each line over `maxLineBytes` (its line number, place, length, NUL run); it is not visited. */
  onOversized?: (o: OversizedLine) => void;
}

/** A chunk read: buf[0, n). */
interface Chunk {
  buf: Buffer;
  n: number;
}

/** Chunks read in order into one reused buffer of `size` bytes. */
function ownReads(fd: number, position: number, size: number): () => Chunk | null {
  const buf = Buffer.allocUnsafe(size);
  return () => {
    const n = readSync(fd, buf, 0, size, position);
    position += n;
    return n > 0 ? { buf, n } : null;
  };
}

/**
 * Receives one line: bytes buf[start, end) without the '\n' (a '\r' before it is included), its
 * number, its byte offset in the file, and whether a '\n' ended it (false only for the last line).
 * `buf` is reused: copy what must outlive the call.
 */
export type LineVisitor = (
  buf: Buffer,
  start: number,
  end: number,
  line: number,
  offset: number,
  complete: boolean,
) => void;

export interface ScanResult {
  /** Offset just past the last '\n' (where a follower continues). */
  endOffset: number;
  /** Line number of the line at endOffset. */
  nextLine: number;
  /** Bytes after endOffset (a final line without newline). */
  pendingBytes: number;
  /** File size when the scan started (it may have grown since). */
  size: number;
  ino: number;
  mtimeMs: number;
}

const DEFAULT_CHUNK = 1024 * 1024;
const DEFAULT_SLICE_MS = 25;

export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  const err = new Error('the operation was aborted');
  err.name = 'AbortError';
  return err;
}

/** Resolves on the event loop's next turn (after pending I/O callbacks and timers). */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export async function scanLines(path: string, visit: LineVisitor, opts: ScanOptions = {}): Promise<ScanResult> {
  const chunkSize = Math.max(1, opts.chunkSize ?? DEFAULT_CHUNK);
  const sliceMs = opts.sliceMs ?? DEFAULT_SLICE_MS;
  const start = opts.fromOffset ?? 0;
  const { signal, onProgress } = opts;
  if (signal?.aborted) throw abortError(signal);
  // Synchronous reads into one reused buffer beat a thread-pool round trip per chunk; yielding
  // every `sliceMs` keeps IPC, progress and cancellation responsive.
  const { fd, stats: facts } = openRegularSync(path);
  try {
    // A small file needs no 1 MiB buffer (listings scan thousands of them); one that grows while
    // it is read is read on in more chunks.
    const next = ownReads(fd, start, Math.max(1, Math.min(chunkSize, facts.size - start + 1)));
    const lines = new LineSplitter(visit, opts.onOversized, start, opts.firstLine ?? 1, opts.maxLineBytes);
    let position = start;
    let sliceStart = performance.now();

    // The file may be longer than it was at fstat (a live session grows): read until 0 bytes.
    for (let chunk = next(); chunk; chunk = next()) {
      lines.push(chunk.buf, chunk.n, position);
      position += chunk.n;
      onProgress?.(position - start, Math.max(0, facts.size - start));
      if (performance.now() - sliceStart >= sliceMs) {
        await nextTurn();
        const hold = opts.pause?.();
        if (hold) await hold;
        sliceStart = performance.now();
      }
      if (signal?.aborted) throw abortError(signal);
    }
    const pendingBytes = lines.pendingBytes;
    const endOffset = pendingBytes > 0 ? lines.pendingStart : position;
    const nextLine = lines.nextLine;
    lines.finish();
    return {
      endOffset,
      nextLine,
      pendingBytes,
      size: facts.size,
      ino: facts.ino,
      mtimeMs: facts.mtimeMs,
    };
  } finally {
    closeSync(fd);
  }
}

/** The file a sync line reader was opened on is gone or another file now (replaced). */
export class FileChangedError extends Error {
  readonly code = 'file_changed';
  constructor(path: string, why: string) {
    super(`${path} changed since it was indexed (${why})`);
  }
}

/**
 * Reads single lines back by byte range, synchronously (an entry's `raw` getter cannot await).
 * Keeps the file open while it is being read from and closes it after `idleMs` without reads; on
 * reopening, a different inode means the path names another file now (FileChangedError).
 */
export class SyncLineReader {
  private fd: number | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  // Made on the first read without a scratch: a pool of readers read through one scratch needs none.
  private own: ReadScratch = { buf: null };

  constructor(
    readonly path: string,
    private readonly ino: number,
    private readonly idleMs = 2000,
  ) {}

  readText(offset: number, length: number): string {
    // Never a string V8 cannot make (an oversized line is an issue, never a body).
    if (length > MAX_LINE_BYTES)
      throw new FileChangedError(this.path, `a ${length}-byte line is longer than any line indexed`);
    return this.readBytes(offset, length).toString('utf8');
  }

  /**
   * `length` bytes at `offset`, in a buffer reused by the next read into the same scratch (the
   * reader's own, unless the caller brings one): copy what must outlive it.
   */
  readBytes(offset: number, length: number, scratch: ReadScratch = this.own): Buffer {
    const fd = this.ensureOpen();
    let buf = scratch.buf;
    if (!buf || length > buf.length)
      buf = scratch.buf = Buffer.allocUnsafe(Math.max(length, 64 * 1024, (buf?.length ?? 0) * 2));
    let filled = 0;
    while (filled < length) {
      const n = readSync(fd, buf, filled, length - filled, offset + filled);
      if (n === 0) break;
      filled += n;
    }
    if (filled < length) throw new FileChangedError(this.path, 'it is shorter than before');
    return buf.subarray(0, length);
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private ensureOpen(): number {
    if (this.fd === null) {
      const { fd, stats } = openRegularSync(this.path);
      if (stats.ino !== this.ino) {
        closeSync(fd);
        throw new FileChangedError(this.path, 'another file now has its name');
      }
      this.fd = fd;
    }
    if (this.timer) this.timer.refresh();
    else {
      this.timer = setTimeout(() => this.close(), this.idleMs);
      this.timer.unref?.();
    }
    return this.fd;
  }
}

interface FastSlices {
  latin1Slice(this: Uint8Array, start: number, end: number): string;
  utf8Slice(this: Uint8Array, start: number, end: number): string;
}

const { latin1Slice, utf8Slice } = Buffer.prototype as unknown as FastSlices;

/**
 * Buffer decoding for the indexer, for any Uint8Array (Buffer's own methods work on one). Latin-1
 * is exact for pure ASCII and cheaper than UTF-8; the un-documented slice methods skip toString's
 * argument handling (measurable at 400k lines).
 */
export function decodeBytes(b: Uint8Array, start: number, end: number, ascii: boolean): string {
  return ascii ? latin1Slice.call(b, start, end) : utf8Slice.call(b, start, end);
}

/** Every byte of b[start, end) is ASCII (SIMD in Node; the indexer's length check of long lines). */
export function isAsciiBytes(b: Uint8Array, start: number, end: number): boolean {
  return isAscii(b.subarray(start, end));
}
