/**
 * Reading and validation on a second core for a big file's strict index pass (verify 'parse'): a
 * helper thread (workers/validate-worker.ts) reads the file's chunks into shared slots a few
 * chunks ahead of the indexer and validates them there, through core/engine/shared-chunks.ts; the
 * indexer takes each chunk read (or reads it itself when it got there first) and asks `verdict`
 * before it validates a line itself. Files under MIN_BYTES, or a helper that cannot start, are
 * read and validated on the indexing thread alone.
 */
import { Worker } from 'node:worker_threads';
import { ChunkReader, sharedChunks, VERDICT_CHUNK, type SharedChunks } from '../core';
import type { ChunkShare } from '../storage/line-scan';
import { workerScript } from '../threads/worker-script';

/** Below this a thread's start (tens of ms) costs more than it saves. */
export const MIN_BYTES = 32 * 1024 * 1024;

export interface ValidateWorkerData extends SharedChunks {
  path: string;
  /** The file the indexer opened (the helper reads only that file). */
  ino: number;
  /** The offset chunk 0 starts at (a line's start). */
  start: number;
}

export interface AheadValidation {
  /** Where the indexing pass reads its chunks (scanLines' `share`). */
  readonly share: ChunkShare;
  /** A line of the chunk taken last, `length` bytes at `offset`: 1 valid, 0 not valid, -1 not known (validate it here). */
  verdict(offset: number, length: number): number;
  /** Whether the helper took chunk `k` of the pass (it reads it, or did). */
  helperTook(k: number): boolean;
  /** The pass is over: the helper stops. */
  close(): void;
  /** Settles when the helper thread has exited (it does once closed, or at the file's end). */
  readonly settled: Promise<void>;
}

/** A helper for a pass over `file` from `start` (`size`: its bytes from there), or null (too small, or no thread here). */
export function validateAhead(
  path: string,
  file: { ino: number; start: number; size: number },
  minBytes = MIN_BYTES,
): AheadValidation | null {
  if (file.size < minBytes) return null;
  const shared = sharedChunks();
  if (!shared) return null;
  const data: ValidateWorkerData = { ...shared, path, ino: file.ino, start: file.start };
  const reader = new ChunkReader(data, file.start);
  const buffers = new Map<Uint8Array, Buffer>(); // a view of each slot, made once
  let worker: Worker;
  try {
    const { script, eval: isEval } = workerScript('validate-worker', __dirname);
    worker = new Worker(script, { eval: isEval, workerData: data });
  } catch {
    return null;
  }
  // unref: it never keeps the process alive; an error only means reading and validating here.
  worker.unref();
  worker.on('error', () => reader.close());
  const settled = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    share: {
      chunkSize: VERDICT_CHUNK,
      take: (k) => {
        const { view, n } = reader.take(k);
        let buf = buffers.get(view);
        if (!buf) buffers.set(view, (buf = Buffer.from(view.buffer, view.byteOffset, view.byteLength)));
        return { buf, n };
      },
      release: (k) => reader.release(k),
    },
    verdict: (offset, length) => reader.verdict(offset, length),
    helperTook: (k) => reader.taken(k),
    close: () => reader.close(),
    settled,
  };
}
