/**
 * A stateful service run in a worker thread of its own (its host: service-host.ts), called like an
 * object: the loop that answers requests only routes. The app's open gate is mirrored into the
 * worker (its background passes still give way while a session opens); the service's status comes
 * back as events. A worker that dies, or a call past its time limit (the worker is then ended: the
 * only way to stop running JavaScript), answers its calls with an error; the next call starts a
 * new worker, which is first sent the call that resumes its background work. A call's limit counts
 * from when its worker serves, so a new worker's start-up (seconds on a loaded machine) is not charged to it.
 */
import { Worker } from 'node:worker_threads';
import { CanopyError, isErrorCode } from '../shared/errors';
import type { OpenGate } from './open-gate';
import type { WorkerScript } from './worker-script';

export type ToService =
  { kind: 'call'; id: number; method: string; args: unknown[] } | { kind: 'gate'; held: boolean } | { kind: 'close' };

/** How long a worker asked to close may take before it is ended. */
const CLOSE_MS = 5000;
/** How long a new worker may take to load its code and start serving (jiti compiles sources under vitest). */
const START_LIMIT_MS = 60_000;

export type FromService =
  | { kind: 'ready' }
  | { kind: 'reply'; id: number; ok: true; value: unknown }
  | { kind: 'reply'; id: number; ok: false; error: { code?: string; message: string } }
  | { kind: 'status'; status: unknown };

export interface ServiceClientOptions<S extends object> {
  /** The service's name in errors ("search", "the secret radar"). */
  name: string;
  script: WorkerScript;
  workerData: unknown;
  gate?: OpenGate;
  /** The service's status until its worker reports one. */
  status: S;
  /** Its status once its worker is gone (no pass runs). */
  stopped: (status: S) => S;
  onStatus?: (status: S) => void;
  /** Told when the worker died or was ended (for the log). */
  onWorkerLost?: (reason: string) => void;
  /** How long a new worker may take to start serving before it is ended (default 60 s). */
  startLimitMs?: number;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  /** The call's own time limit, armed once its worker serves (its start-up is not the call's time). */
  limitMs: number | null;
  timer: ReturnType<typeof setTimeout> | null;
}

export class ServiceClient<S extends object> {
  private worker: Worker | null = null;
  /** Whether the current worker has said it serves; until then no call's limit runs. */
  private serving = false;
  private startTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;
  private gateHeld = false;
  private readonly unwatch: (() => void) | null;
  /** The call a new worker gets first, so its background work goes on (the last listing's pass). */
  private resumeWith: { method: string; args: unknown[] } | null = null;
  /** The last status the worker reported (this client is its one owner on this side). */
  private lastStatus: S;

  constructor(private readonly options: ServiceClientOptions<S>) {
    this.lastStatus = options.status;
    this.unwatch =
      options.gate?.watch((held) => {
        this.gateHeld = held;
        this.worker?.postMessage({ kind: 'gate', held } satisfies ToService);
      }) ?? null;
  }

  /** `method(...args)` in the worker; past `limitMs` the worker is ended and the call fails with `io`. */
  call<T>(method: string, args: unknown[], limitMs: number | null = null): Promise<T> {
    if (this.closed) return Promise.reject(new CanopyError('cancelled', `${this.options.name} closed`));
    let worker: Worker;
    try {
      worker = this.ensure();
    } catch (err) {
      // No worker could start (its script is missing): this call fails, the caller's process goes on.
      const why = err instanceof Error ? err.message : String(err);
      return Promise.reject(new CanopyError('internal', `${this.options.name} could not start: ${why}`));
    }
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const p: Pending = { resolve: resolve as (v: unknown) => void, reject, limitMs, timer: null };
      if (this.serving) this.arm(worker, p);
      this.pending.set(id, p);
      worker.ref();
      worker.postMessage({ kind: 'call', id, method, args } satisfies ToService);
    });
  }

  status(): S {
    return { ...this.lastStatus };
  }

  /** Remembers the call that resumes the background work in a new worker (the caller makes it now too). */
  resumeBy(method: string, args: unknown[]): void {
    this.resumeWith = { method, args };
  }

  /** Settles once the worker has exited: its service's files (an index's WAL) are closed by then. */
  close(): Promise<void> {
    this.closed = true;
    this.unwatch?.();
    this.clearStart();
    this.fail(new CanopyError('cancelled', `${this.options.name} closed`));
    const worker = this.worker;
    this.worker = null;
    if (!worker) return Promise.resolve();
    // Asked, it closes its service and exits at its next turn. Ended at once, a worker inside a
    // better-sqlite3 call whose error it could no longer make aborted the whole process
    // (v8::ToLocalChecked): it is ended only if it has not exited within CLOSE_MS.
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ kind: 'close' } satisfies ToService);
    const timer = setTimeout(() => void worker.terminate(), CLOSE_MS);
    timer.unref();
    void exited.then(() => clearTimeout(timer));
    return exited;
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const { script, eval: isEval } = this.options.script;
    const worker = new Worker(script, { eval: isEval, workerData: this.options.workerData });
    worker.on('message', (m: FromService) => this.receive(worker, m));
    worker.on('error', (err) => this.lose(worker, `${this.options.name} failed: ${err.message}`));
    worker.on('exit', (code) => this.lose(worker, `${this.options.name} stopped (exit code ${code})`));
    worker.unref();
    this.worker = worker;
    this.serving = false;
    const startLimit = this.options.startLimitMs ?? START_LIMIT_MS;
    this.startTimer = setTimeout(
      () => this.lose(worker, `${this.options.name} did not start within ${startLimit} ms`),
      startLimit,
    );
    this.startTimer.unref();
    if (this.gateHeld) worker.postMessage({ kind: 'gate', held: true } satisfies ToService);
    // The caller of the lost call was answered already: this one's answer goes nowhere.
    if (this.resumeWith)
      worker.postMessage({ kind: 'call', id: this.nextId++, ...this.resumeWith } satisfies ToService);
    return worker;
  }

  /** Starts a call's own time limit: past it the worker is ended (the only way to stop running JavaScript). */
  private arm(worker: Worker, p: Pending): void {
    const limitMs = p.limitMs;
    if (limitMs === null || p.timer) return;
    p.timer = setTimeout(
      () => this.lose(worker, `${this.options.name} ran longer than ${limitMs} ms and was stopped`, 'io'),
      limitMs,
    );
  }

  private receive(worker: Worker, m: FromService): void {
    if (worker !== this.worker) return;
    if (m.kind === 'ready') {
      this.serving = true;
      this.clearStart();
      for (const p of this.pending.values()) this.arm(worker, p);
      return;
    }
    if (m.kind === 'status') {
      this.lastStatus = m.status as S;
      this.options.onStatus?.(this.status());
      return;
    }
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    if (p.timer) clearTimeout(p.timer);
    if (this.pending.size === 0) this.worker?.unref();
    if (m.ok) p.resolve(m.value);
    else p.reject(new CanopyError(isErrorCode(m.error.code) ? m.error.code : 'internal', m.error.message));
  }

  /** The worker is gone (died, or ended for running too long): its calls fail, the next call starts another. */
  private lose(worker: Worker, reason: string, code: 'io' | 'internal' = 'internal'): void {
    // An earlier worker's late exit event is not the current one's.
    if (worker !== this.worker) return;
    this.worker = null;
    this.clearStart();
    void worker.terminate();
    this.lastStatus = this.options.stopped(this.lastStatus);
    this.fail(new CanopyError(code, reason));
    if (!this.closed) this.options.onWorkerLost?.(reason);
  }

  private clearStart(): void {
    if (this.startTimer) clearTimeout(this.startTimer);
    this.startTimer = null;
  }

  private fail(err: CanopyError): void {
    for (const p of this.pending.values()) {
      if (p.timer) clearTimeout(p.timer);
      p.reject(err);
    }
    this.pending.clear();
  }
}
