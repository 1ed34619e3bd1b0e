/**
 * A regular file's complete lines in chunks, read synchronously a chunk at a time: for a generator
 * that another loop steps in slices (search's byte stage). The file is opened as regular-file.ts
 * opens (a FIFO or device swapped in never blocks); a last line without its newline is left out
 * (it may be half written).
 */
import { closeSync, readSync } from 'node:fs';
import { openRegularSync } from './regular-file';

const CHUNK = 1 << 20;
const NL = 0x0a;

/** An open regular file to read lines from; close it when done. */
export interface LineFile {
  /** Complete lines from `from`, each chunk ending with a newline, then `null` (a point to pause). */
  chunks(from?: number, maxLine?: number): Generator<Buffer | null>;
  close(): void;
}

/** Opens `path` (throws when it is gone or not a regular file). */
export function openLineFile(path: string): LineFile {
  const { fd } = openRegularSync(path);
  return {
    chunks: (from = 0, maxLine = 256 * 1024 * 1024) => chunksOf(fd, from, maxLine),
    close: () => closeSync(fd),
  };
}

function* chunksOf(fd: number, from: number, maxLine: number): Generator<Buffer | null> {
  const buf = Buffer.allocUnsafe(CHUNK);
  let carry: Buffer | null = null;
  for (let pos = from; ;) {
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
      // A line longer than maxLine is left out whole (its bytes up to the next newline are dropped).
      carry = data.length > maxLine ? null : Buffer.from(data);
      continue;
    }
    yield data.subarray(0, last + 1);
    carry = last + 1 < data.length ? Buffer.from(data.subarray(last + 1)) : null;
    yield null;
  }
}
