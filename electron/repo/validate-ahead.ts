/**
 * Validation on a second core for a big file's strict index pass (verify 'parse'): the indexing
 * thread reads the file's chunks into shared slots a few chunks ahead, and a helper thread
 * (workers/validate-worker.ts) validates them as they arrive, through core/engine/shared-chunks.ts;
 * the indexer asks `verdict` before it validates a line itself. The file is read once.
 * Files under MIN_BYTES, or a helper that cannot start, are validated on the indexing thread alone.
 */
import { Worker } from 'node:worker_threads';
import { AHEAD, ChunkWriter, sharedChunks, VERDICT_CHUNK, type SharedChunks } from '../core';
import type { ChunkShare } from '../storage/line-scan';
import { workerScript } from '../workers/worker-script';

/** Below this a thread's start (tens of ms) costs more than it saves. */
export const MIN_BYTES = 32 * 1024 * 1024;

export type ValidateWorkerData = SharedChunks;

export interface AheadValidation {
  /** Where the indexing pass reads its chunks (scanLines' `share`). */
  readonly share: ChunkShare;
  /** The line at `offset`, `length` bytes: 1 valid, 0 not valid, -1 not known (validate it here). Asked in file order. */
  verdict(offset: number, length: number): number;
  /** Whether the helper took chunk `k` of the pass (it validates it, or did). */
  helperTook(k: number): boolean;
  /** The pass is over: the helper stops. */
  close(): void;
  /** Settles when the helper thread has exited (it does once closed). */
  readonly settled: Promise<void>;
}

/** A helper for a pass over `bytes` bytes, or null (too small to be worth a thread, or no thread here). */
export function validateAhead(bytes: number, minBytes = MIN_BYTES): AheadValidation | null {
  if (bytes < minBytes) return null;
  const shared = sharedChunks();
  const writer = new ChunkWriter(shared);
  let worker: Worker;
  try {
    const { script, eval: isEval } = workerScript('validate-worker');
    worker = new Worker(script, { eval: isEval, workerData: shared satisfies ValidateWorkerData });
  } catch {
    return null;
  }
  // unref: it never keeps the process alive; an error only means validating here.
  worker.unref();
  worker.on('error', () => writer.close());
  const settled = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    share: {
      chunkSize: VERDICT_CHUNK,
      ahead: AHEAD,
      slot: (k, at) => {
        const view = writer.slot(k, at);
        return Buffer.from(view.buffer, view.byteOffset, view.byteLength);
      },
      ready: (k, n) => writer.ready(k, n),
    },
    verdict: (offset, length) => writer.verdict(offset, length),
    helperTook: (k) => writer.taken(k),
    close: () => writer.close(),
    settled,
  };
}
