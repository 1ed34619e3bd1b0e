/**
 * Follow appends to a file that another process (pi) writes. Only complete lines are returned: a
 * last line without its '\n' may be a write in progress, so it stays pending (the returned offset
 * stays at its start) and comes back whole on a later call.
 */
import { readLineBatches, readRange, type StoredLine } from './read';
import { errnoCode, statPath } from './stat';

export interface TailOptions {
  /** Line number of the line at `offset` (default 1); pass the `nextLine` of the previous call. */
  firstLine?: number;
  /** Inode seen last time; a different one means the path now names another file. */
  ino?: number;
  chunkSize?: number;
}

export interface TailResult {
  /** Complete lines appended since `offset`. Empty when `reset` is set. */
  lines: StoredLine[];
  /** Where the next call should start (start of a pending partial line, or end of file). */
  offset: number;
  /** Line number of the line at `offset`. */
  nextLine: number;
  /** Bytes in the file after a partial last line, still waiting for its '\n'. */
  pendingBytes: number;
  size: number;
  ino: number;
  /**
   * Set when the file cannot be followed from `offset`: it shrank ('truncated'), the path names a
   * new file ('replaced'), or the byte before `offset` is no longer a '\n' ('rewritten'). The caller
   * should re-read the file from the start.
   */
  reset?: 'truncated' | 'replaced' | 'rewritten' | 'missing';
}

export async function tailFrom(path: string, offset: number, opts: TailOptions = {}): Promise<TailResult> {
  let facts;
  try {
    facts = await statPath(path);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') {
      return { lines: [], offset: 0, nextLine: 1, pendingBytes: 0, size: 0, ino: 0, reset: 'missing' };
    }
    throw err;
  }
  const resetTo = (reset: NonNullable<TailResult['reset']>): TailResult => ({
    lines: [],
    offset: 0,
    nextLine: 1,
    pendingBytes: 0,
    size: facts.size,
    ino: facts.ino,
    reset,
  });
  if (opts.ino !== undefined && opts.ino !== facts.ino) return resetTo('replaced');
  if (facts.size < offset) return resetTo('truncated');
  if (offset > 0) {
    const before = await readRange(path, offset - 1, 1);
    if (before[0] !== 0x0a) return resetTo('rewritten');
  }

  const lines: StoredLine[] = [];
  let next = offset;
  let nextLine = opts.firstLine ?? 1;
  let pendingBytes = 0;
  for await (const batch of readLineBatches(path, {
    fromOffset: offset,
    firstLine: nextLine,
    chunkSize: opts.chunkSize,
  })) {
    for (const line of batch) {
      if (!line.complete) {
        pendingBytes = line.length;
        continue;
      }
      lines.push(line);
      next = line.offset + line.length + 1;
      nextLine = line.line + 1;
    }
  }
  // The file may have grown while it was read.
  const size = Math.max(facts.size, next + pendingBytes);
  return { lines, offset: next, nextLine, pendingBytes, size, ino: facts.ino };
}
