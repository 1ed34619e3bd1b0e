/**
 * A small pool of worker threads for heavy or untrusted work, so the loop that answers requests
 * only routes. Each worker runs one task at a time; a task past its time limit or cancelled by its
 * signal ends its worker (the only way to stop running JavaScript), and a worker that dies for any
 * reason is replaced: the task it held is answered with an error, the process lives on.
 *
 * The protocol: the pool posts { id, task }, the worker answers { id, ok: true, value } or
 * { id, ok: false, error: { code?, message } }; buffers listed in `transfer` (either way) move
 * instead of being copied (an index's typed-array columns).
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { CanopyError, isErrorCode } from '../shared/errors';

export interface PoolOptions {
  /** The worker's script (a path or URL), or its source with `eval: true`. */
  script: string | URL;
  eval?: boolean;
  /** Workers at most (default 2: this app shares its machine with the user's). */
  size?: number;
  /** A task's time limit unless it gives its own (default 60 s). */
  timeoutMs?: number;
  workerData?: unknown;
  /** Told when a worker died or was ended (for the log). */
  onWorkerLost?: (reason: string) => void;
}

export interface RunOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Buffers to move to the worker with the task (they become unusable here). */
  transfer?: ArrayBuffer[];
}

interface Job {
  id: number;
  task: unknown;
  opts: RunOptions;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  timer: ReturnType<typeof setTimeout> | null;
  onAbort: (() => void) | null;
}

type Reply =
  { id: number; ok: true; value: unknown } | { id: number; ok: false; error: { code?: string; message: string } };

export class WorkerPool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  private readonly size: number;

  constructor(private readonly opts: PoolOptions) {
    this.size = Math.max(1, opts.size ?? 2);
  }

  /** Runs `task` in a worker; rejects with CanopyError cancelled / io (time limit) / internal (worker died or threw). */
  run<T>(task: unknown, opts: RunOptions = {}): Promise<T> {
    if (this.closed) return Promise.reject(new CanopyError('internal', 'the worker pool is closed'));
    if (opts.signal?.aborted) return Promise.reject(cancelled());
    return new Promise<T>((resolve, reject) => {
      const job: Job = { id: this.nextId++, task, opts, resolve: resolve as (v: unknown) => void, reject };
      if (opts.signal) {
        // Still queued when cancelled: it never starts.
        opts.signal.addEventListener(
          'abort',
          () => {
            const at = this.queue.indexOf(job);
            if (at >= 0) {
              this.queue.splice(at, 1);
              reject(cancelled());
            }
          },
          { once: true },
        );
      }
      this.queue.push(job);
      this.pump();
    });
  }

  /** Workers alive now (for tests and diagnostics). */
  get workers(): number {
    return this.slots.size;
  }

  /** Ends every worker; queued and running tasks are answered with an error. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new CanopyError('internal', 'the worker pool closed'));
    const ending = [...this.slots].map((slot) => {
      this.finish(slot, new CanopyError('internal', 'the worker pool closed'));
      return slot.worker.terminate();
    });
    this.slots.clear();
    await Promise.all(ending);
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let slot = [...this.slots].find((s) => s.job === null);
      if (!slot && this.slots.size < this.size) slot = this.spawn();
      if (!slot) return;
      this.start(slot, this.queue.shift()!);
    }
  }

  private spawn(): Slot {
    const options: WorkerOptions = { eval: this.opts.eval === true };
    if (this.opts.workerData !== undefined) options.workerData = this.opts.workerData;
    const worker = new Worker(this.opts.script, options);
    const slot: Slot = { worker, job: null, timer: null, onAbort: null };
    worker.on('message', (reply: Reply) => {
      const job = slot.job;
      if (!job || reply.id !== job.id) return;
      this.settle(slot);
      if (reply.ok) job.resolve(reply.value);
      else
        job.reject(new CanopyError(isErrorCode(reply.error.code) ? reply.error.code : 'internal', reply.error.message));
      this.pump();
    });
    // A worker that throws outside a task, runs out of memory or exits: its task gets an error, a new worker takes its place.
    worker.on('error', (err) => this.lose(slot, `the worker failed: ${err.message}`));
    worker.on('exit', (code) => this.lose(slot, `the worker exited (code ${code})`));
    worker.unref();
    this.slots.add(slot);
    return slot;
  }

  private start(slot: Slot, job: Job): void {
    slot.job = job;
    // A running task keeps the process alive; an idle worker does not.
    slot.worker.ref();
    const limit = job.opts.timeoutMs ?? this.opts.timeoutMs ?? 60_000;
    slot.timer = setTimeout(
      () => this.end(slot, new CanopyError('io', `the task took longer than ${limit} ms and was stopped`)),
      limit,
    );
    slot.timer.unref?.();
    if (job.opts.signal) {
      slot.onAbort = () => this.end(slot, cancelled());
      job.opts.signal.addEventListener('abort', slot.onAbort, { once: true });
    }
    slot.worker.postMessage({ id: job.id, task: job.task }, job.opts.transfer ?? []);
  }

  /** Stops a running task by ending its worker; the slot is replaced. */
  private end(slot: Slot, err: Error): void {
    if (!this.slots.has(slot)) return;
    this.slots.delete(slot);
    this.finish(slot, err);
    this.opts.onWorkerLost?.(err.message);
    void slot.worker.terminate();
    this.pump();
  }

  private lose(slot: Slot, reason: string): void {
    if (!this.slots.has(slot)) return;
    this.slots.delete(slot);
    this.finish(slot, new CanopyError('internal', reason));
    this.opts.onWorkerLost?.(reason);
    if (!this.closed) this.pump();
  }

  private finish(slot: Slot, err: Error): void {
    const job = slot.job;
    this.settle(slot);
    job?.reject(err);
  }

  private settle(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    if (slot.onAbort && slot.job?.opts.signal) slot.job.opts.signal.removeEventListener('abort', slot.onAbort);
    slot.timer = null;
    slot.onAbort = null;
    slot.job = null;
    slot.worker.unref();
  }
}

function cancelled(): CanopyError {
  return new CanopyError('cancelled', 'the task was cancelled');
}
