/**
 * Slim copies: a new session file next to the source, written like a fork (temp file, fsync,
 * no-clobber link; storage/create.ts), whose lines are the source's with image blocks and long
 * outputs replaced (core's slimLine). The source is streamed line by line and the copy written as it
 * is produced: a bounded queue between the two (the scan waits while it is full), so a 2.6 GiB
 * session never becomes one string and memory stays bounded by the longest line.
 */
import { dirname, resolve } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { sessionFileName, slimHeader, slimLine, type SlimOptions } from '../../core';
import { createNewFile } from '../../storage/create';
import { decodeBytes, scanLines } from '../../storage/line-scan';
import { readFirstLine } from '../../storage/read';
import { statPath } from '../../storage/stat';

export interface SlimResult {
  file: string;
  /** The new session file. */
  path: string;
  id: string;
  bytesBefore: number;
  bytesAfter: number;
  imagesRemoved: number;
  outputsCut: number;
}

export interface SlimRunOptions extends SlimOptions {
  now?: () => Date;
  newSessionId?: () => string;
}

/** Output is handed to the writer in pieces of about this size. */
const PIECE = 1024 * 1024;
/** The scan waits while this much is written ahead of the writer. */
const HIGH_WATER = 8 * 1024 * 1024;
const NEWLINE = Uint8Array.of(0x0a);

/** Bytes between a producer that must not block and an async consumer; `wait()` holds the producer. */
class ByteQueue {
  private readonly items: Uint8Array[] = [];
  private buffered = 0;
  private pending = Buffer.allocUnsafe(PIECE);
  private used = 0;
  private wake: (() => void) | null = null;
  private drained: { promise: Promise<void>; resolve: () => void } | null = null;
  done = false;
  error: unknown = null;
  written = 0;

  /** Copies `bytes` (the scan reuses its buffer). */
  push(bytes: Uint8Array): void {
    this.written += bytes.length;
    if (bytes.length >= PIECE) {
      this.flush();
      this.enqueue(Buffer.from(bytes));
      return;
    }
    if (this.used + bytes.length > PIECE) this.flush();
    this.pending.set(bytes, this.used);
    this.used += bytes.length;
  }

  flush(): void {
    if (this.used === 0) return;
    this.enqueue(this.pending.subarray(0, this.used));
    this.pending = Buffer.allocUnsafe(PIECE);
    this.used = 0;
  }

  private enqueue(b: Uint8Array): void {
    this.items.push(b);
    this.buffered += b.length;
    this.wake?.();
  }

  finish(error: unknown = null): void {
    this.flush();
    this.done = true;
    this.error = error;
    this.wake?.();
  }

  /** A promise while the queue is full (the scan's pause hook), else null. */
  wait(): Promise<void> | null {
    if (this.buffered < HIGH_WATER) return null;
    if (!this.drained) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.drained = { promise, resolve };
    }
    return this.drained.promise;
  }

  async *drain(): AsyncGenerator<Uint8Array> {
    for (;;) {
      const next = this.items.shift();
      if (next) {
        this.buffered -= next.length;
        if (this.drained && this.buffered < HIGH_WATER / 2) {
          this.drained.resolve();
          this.drained = null;
        }
        yield next;
        continue;
      }
      if (this.done) {
        if (this.error) throw this.error;
        return;
      }
      await new Promise<void>((r) => (this.wake = r));
      this.wake = null;
    }
  }
}

/** Writes the slim copy of `file`; throws (CreateFileError, read errors, not a v3 session) without leaving a file. */
export async function slimSession(file: string, opts: SlimRunOptions): Promise<SlimResult> {
  file = resolve(file);
  const before = await statPath(file);
  const id = (opts.newSessionId ?? uuidv7)();
  const timestamp = (opts.now?.() ?? new Date()).toISOString();
  const first = await readFirstLine(file);
  if (!first) throw new Error('empty file (not a session)');
  // Checked before anything is created: a file that is no v3 session gets no copy.
  const header = slimHeader(first.text, file, id, timestamp);
  const name = sessionFileName(timestamp, id);
  const queue = new ByteQueue();
  let imagesRemoved = 0;
  let outputsCut = 0;
  let headerDone = false;
  const produce = async (): Promise<void> => {
    try {
      await scanLines(
        file,
        (buf, start, end, line, _offset, complete) => {
          if (!headerDone) {
            headerDone = true;
            queue.push(Buffer.from(header));
          } else {
            const cr = end > start && buf[end - 1] === 0x0d ? 1 : 0;
            const slim = slimLine(buf, start, end - cr, line, opts, decodeBytes);
            if (slim) {
              for (const p of slim.pieces) queue.push(p);
              if (cr) queue.push(buf.subarray(end - 1, end));
              imagesRemoved += slim.imagesRemoved;
              outputsCut += slim.outputsCut;
            } else queue.push(buf.subarray(start, end));
          }
          if (complete) queue.push(NEWLINE);
        },
        { sliceMs: 5, pause: () => queue.wait() },
      );
      queue.finish();
    } catch (err) {
      queue.finish(err);
    }
  };
  let started: Promise<void> | null = null;
  const content = {
    [Symbol.asyncIterator]: () => {
      started ??= produce();
      return queue.drain();
    },
  };
  const path = await createNewFile(dirname(file), name, content);
  await started;
  return {
    file,
    path,
    id,
    bytesBefore: before.size,
    bytesAfter: queue.written,
    imagesRemoved,
    outputsCut,
  };
}
