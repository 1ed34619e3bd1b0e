/**
 * Chunked, streaming reads of line-oriented files. Never holds a whole file as one string: bytes
 * are read into one reused buffer, and only a line that spans chunk boundaries is copied (into a
 * second reused buffer that grows to the longest such line).
 */
import { LineSplitter, type OversizedLine } from './line-split';
import { openRegular } from './regular-file';

/**
 * One physical line. Structurally a core `RawLine`, plus where its bytes are.
 * `text` has the '\n' and one '\r' before it removed (as pi's CA reader, readline with crlfDelay).
 */
export interface StoredLine {
  /** 1-based physical line number (blank lines count). */
  line: number;
  text: string;
  /** false only for a final line with no trailing '\n'. */
  complete: boolean;
  /** Byte offset of the line's first byte. */
  offset: number;
  /** Bytes of the line without its '\n' (a '\r' before it is counted). */
  length: number;
  /** Set for a line over the size limit: `text` is '' (never decoded). */
  oversized?: OversizedLine;
}

export interface ReadLinesOptions {
  /** Byte offset to start at; must be the start of a line. Default 0. */
  fromOffset?: number;
  /** Line number of the line at `fromOffset`. Default 1. */
  firstLine?: number;
  /** Bytes per read. Default 256 KiB; tests use tiny values to hit chunk boundaries. */
  chunkSize?: number;
  /** Lines longer than this come as `oversized` (default MAX_LINE_BYTES). */
  maxLineBytes?: number | undefined;
}

const DEFAULT_CHUNK = 256 * 1024;
const NEWLINE = 0x0a;
const CR = 0x0d;

function decodeLine(buf: Buffer, start: number, end: number): string {
  const stop = end > start && buf[end - 1] === CR ? end - 1 : end;
  return buf.toString('utf8', start, stop);
}

/** Lines of a file, one batch per chunk read (cheaper than one await per line for big files). */
export async function* readLineBatches(path: string, opts: ReadLinesOptions = {}): AsyncGenerator<StoredLine[]> {
  const chunkSize = Math.max(1, opts.chunkSize ?? DEFAULT_CHUNK);
  let position = opts.fromOffset ?? 0;
  const chunk = Buffer.allocUnsafe(chunkSize);
  let batch: StoredLine[] = [];
  const lines = new LineSplitter(
    (buf, start, end, line, offset, complete) =>
      batch.push({ line, text: decodeLine(buf, start, end), complete, offset, length: end - start }),
    (o) =>
      batch.push({ line: o.line, text: '', complete: o.complete, offset: o.offset, length: o.length, oversized: o }),
    position,
    opts.firstLine ?? 1,
    opts.maxLineBytes,
  );
  const { handle } = await openRegular(path);
  try {
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunkSize, position);
      if (bytesRead === 0) break;
      lines.push(chunk, bytesRead, position);
      position += bytesRead;
      if (batch.length > 0) {
        yield batch;
        batch = [];
      }
    }
    lines.finish();
    if (batch.length > 0) yield batch;
  } finally {
    await handle.close();
  }
}

/** Every physical line of a file, streamed. */
export async function* readLines(path: string, opts: ReadLinesOptions = {}): AsyncGenerator<StoredLine> {
  for await (const batch of readLineBatches(path, opts)) yield* batch;
}

export interface FirstLine {
  text: string;
  /** false when the file ends before any '\n'. */
  complete: boolean;
  /** Bytes of the line without its '\n'. */
  length: number;
}

export class LineTooLongError extends Error {
  readonly code = 'line_too_long';
  constructor(path: string, maxBytes: number) {
    super(`first line of ${path} is longer than ${maxBytes} bytes`);
  }
}

/**
 * The first physical line, reading small buffers until the first '\n'. `null` for an empty file.
 * Throws LineTooLongError past `maxBytes` (default 16 MiB) so a headerless huge file costs little.
 */
export async function readFirstLine(
  path: string,
  opts: { chunkSize?: number; maxBytes?: number } = {},
): Promise<FirstLine | null> {
  const chunkSize = Math.max(1, opts.chunkSize ?? 4096);
  const maxBytes = opts.maxBytes ?? 16 * 1024 * 1024;
  const { handle } = await openRegular(path);
  try {
    let buf = Buffer.allocUnsafe(chunkSize);
    let filled = 0;
    for (;;) {
      if (filled === buf.length) {
        const grown = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(grown, 0, 0, filled);
        buf = grown;
      }
      const { bytesRead } = await handle.read(buf, filled, Math.min(chunkSize, buf.length - filled), filled);
      if (bytesRead === 0) {
        if (filled === 0) return null;
        return { text: decodeLine(buf, 0, filled), complete: false, length: filled };
      }
      const nl = buf.indexOf(NEWLINE, filled);
      filled += bytesRead;
      if (nl !== -1 && nl < filled) return { text: decodeLine(buf, 0, nl), complete: true, length: nl };
      if (filled > maxBytes) throw new LineTooLongError(path, maxBytes);
    }
  } finally {
    await handle.close();
  }
}

/** Up to `length` bytes from `offset` (fewer at end of file). */
export async function readRange(path: string, offset: number, length: number): Promise<Buffer> {
  const { handle } = await openRegular(path);
  try {
    const buf = Buffer.allocUnsafe(length);
    let filled = 0;
    while (filled < length) {
      const { bytesRead } = await handle.read(buf, filled, length - filled, offset + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return filled === length ? buf : buf.subarray(0, filled);
  } finally {
    await handle.close();
  }
}
