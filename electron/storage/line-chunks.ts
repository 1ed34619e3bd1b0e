/**
 * A regular file's complete lines in chunks, read synchronously a chunk at a time: for a generator
 * that another loop steps in slices (search's byte stage). The file is opened as regular-file.ts
 * opens (a FIFO or device swapped in never blocks); a last line without its newline is left out
 * (it may be half written).
 */
import { closeSync, readSync } from 'node:fs';
import { openRegularSync } from './regular-file';

const CHUNK = 1 << 20;
/** A line longer than this is left out whole (a screenshot's line is not searched text). */
const MAX_LINE = 256 * 1024 * 1024;
const NL = 0x0a;

/** An open regular file to read lines from; close it when done. */
export interface LineFile {
  /** The complete lines, each chunk ending with a newline, then `null` (a point to pause). */
  chunks(): Generator<Buffer | null>;
  /** Read whole at open: `chunks` yields its complete lines at once, then ends. */
  readonly whole: boolean;
  /** What fstat said at open (a file unchanged since keeps what was learnt of it). */
  readonly facts: { ino: number; size: number; mtimeMs: number };
  close(): void;
}

/** Files up to this size are read once, whole, and every pass walks the same bytes. */
const WHOLE = 4 * 1024 * 1024;

/**
 * A buffer one reader of many files in turn reads each whole file into (a new buffer per file was
 * most of the garbage a byte search made): a file's bytes are valid until the next file is opened.
 */
export interface ReadScratch {
  buf: Buffer | null;
}

/** Opens `path` (throws when it is gone or not a regular file). */
export function openLineFile(path: string, scratch?: ReadScratch): LineFile {
  const { fd, stats } = openRegularSync(path);
  let whole: Buffer | null = null;
  if (stats.size <= WHOLE) {
    try {
      whole = readWhole(fd, stats.size, scratch);
    } catch (err) {
      closeSync(fd);
      throw err;
    }
  }
  // One buffer for every pass over a larger file (a pass ends before the next begins).
  let buf: Buffer | null = null;
  return {
    chunks: () => (whole ? wholeLines(whole) : chunksOf(fd, (buf ??= Buffer.allocUnsafe(CHUNK)))),
    whole: whole !== null,
    facts: { ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs },
    close: () => closeSync(fd),
  };
}

/** The file's bytes now (it may have grown since fstat: read until a read comes short). */
function readWhole(fd: number, size: number, scratch?: ReadScratch): Buffer {
  // One byte more than its size: a read that fills less than asked found the end (a regular file).
  let b = scratch?.buf && scratch.buf.length > size ? scratch.buf : Buffer.allocUnsafe(size + 1);
  let n = 0;
  for (;;) {
    if (n === b.length) b = Buffer.concat([b, Buffer.allocUnsafe(b.length)]);
    const want = b.length - n;
    const got = readSync(fd, b, n, want, n);
    n += got;
    if (got < want) break;
  }
  if (scratch) scratch.buf = b;
  return b.subarray(0, n);
}

function* wholeLines(b: Buffer): Generator<Buffer | null> {
  const end = b.lastIndexOf(NL) + 1;
  if (end > 0) yield b.subarray(0, end);
}

function* chunksOf(fd: number, buf: Buffer): Generator<Buffer | null> {
  let carry: Buffer | null = null;
  for (let pos = 0; ;) {
    let n: number;
    try {
      n = readSync(fd, buf, 0, CHUNK, pos);
    } catch {
      return; // unreadable from here (EIO): what was read stands
    }
    if (n === 0) return;
    pos += n;
    const data: Buffer = carry ? Buffer.concat([carry, buf.subarray(0, n)]) : buf.subarray(0, n);
    const last = data.lastIndexOf(NL);
    if (last < 0) {
      // Past MAX_LINE the line is dropped: its bytes up to the next newline read as one bad line.
      carry = data.length > MAX_LINE ? null : Buffer.from(data);
      continue;
    }
    yield data.subarray(0, last + 1);
    carry = last + 1 < data.length ? Buffer.from(data.subarray(last + 1)) : null;
    yield null;
  }
}
