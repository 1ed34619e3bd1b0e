/**
 * Validation on a second core for a big file's strict index pass (verify 'parse'): a helper
 * thread (workers/validate-worker.ts) validates the file's chunks from its end backwards while the
 * indexer goes forwards, through core/engine/verdict-ring.ts; the indexer asks `verdict` before it
 * validates a line itself.
 * Files under MIN_BYTES, or a helper that cannot start, are validated on the indexing thread alone.
 */
import { Worker } from 'node:worker_threads';
import { ringControl, RingReader } from '../core';
import { workerScript } from '../workers/worker-script';

/** Below this a thread's start (tens of ms) costs more than it saves. */
export const MIN_BYTES = 32 * 1024 * 1024;

export interface ValidateWorkerData {
  control: SharedArrayBuffer;
  path: string;
  /** The file the indexer opened (the helper reads only that file). */
  ino: number;
  /** The offset chunk 0 starts at (a line's start). */
  start: number;
}

export interface AheadValidation {
  /** The line at `offset`, `length` bytes: 1 valid, 0 not valid, -1 not known (validate it here). Asked in file order. */
  verdict(offset: number, length: number): number;
  /** The pass is over: the helper stops. */
  close(): void;
  /** Settles when the helper thread has exited (it does once closed, or past the file's end). */
  readonly settled: Promise<void>;
}

export function validateAhead(
  path: string,
  file: { ino: number; size: number },
  start = 0,
  minBytes = MIN_BYTES,
): AheadValidation | null {
  if (file.size - start < minBytes) return null;
  const data: ValidateWorkerData = { control: ringControl(file.size - start), path, ino: file.ino, start };
  const reader = new RingReader(data.control, start);
  let worker: Worker;
  try {
    const { script, eval: isEval } = workerScript('validate-worker');
    worker = new Worker(script, { eval: isEval, workerData: data });
  } catch {
    return null;
  }
  // unref: it never keeps the process alive; an error only means validating here.
  worker.unref();
  worker.on('error', () => reader.close());
  const settled = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return { verdict: (offset, length) => reader.verdict(offset, length), close: () => reader.close(), settled };
}
