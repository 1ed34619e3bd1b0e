/**
 * Heavy per-session answers built in a worker thread (session-worker.ts), so the loop that
 * answers requests only routes: the context view of a million-entry path took 23 s and held that
 * loop up to 8 s; the graph of a million-entry session (43 MB) held it 1–2 s. The worker keeps its
 * own index of the file (followed like the main thread's); a task past its time limit or a worker
 * that dies is answered with an error, the next one gets a new worker.
 */
import type { Profile } from '../core';
import type { ContextViewDto } from '../shared/context-dto';
import type { SessionRowDto } from '../shared/dto';
import type { SessionGraphWireDto } from '../shared/entry-nodes';
import { WorkerPool } from '../threads/pool';
import { workerScript, type WorkerScript } from '../threads/worker-script';
import { EncodedJson } from './encoded-json';

/** What every task names: the file (confined by the caller), and how its view is taken. */
export interface OffloadTask {
  path: string;
  profile?: Profile;
  leafId?: string | null;
  writerIdleMs?: number;
}

/** The context view at a leaf, or a big session's graph from its index alone (session.open, lazy). */
export type SessionTask =
  (OffloadTask & { kind: 'context'; sessionId: string }) | (OffloadTask & { kind: 'graph'; row: SessionRowDto });

/** A context past this long is stopped (its worker ended); a million-entry path takes ~25 s here. */
const TASK_LIMIT_MS = 180_000;

export interface SessionOffloadOptions {
  script?: WorkerScript;
  timeoutMs?: number;
  onWorkerLost?: (reason: string) => void;
}

export class SessionOffload {
  private pool: WorkerPool | null = null;

  constructor(private readonly options: SessionOffloadOptions = {}) {}

  /** The context view of the file at `path` (confined by the caller), as JSON bytes. */
  async context(
    task: Omit<Extract<SessionTask, { kind: 'context' }>, 'kind'>,
    signal?: AbortSignal,
  ): Promise<EncodedJson<ContextViewDto>> {
    return this.bytes({ kind: 'context', ...task }, signal);
  }

  /** A big session's graph from its index alone (session.open's lazy answer), as JSON bytes. */
  async graph(
    task: Omit<Extract<SessionTask, { kind: 'graph' }>, 'kind'>,
    signal?: AbortSignal,
  ): Promise<EncodedJson<SessionGraphWireDto>> {
    return this.bytes({ kind: 'graph', ...task }, signal);
  }

  private async bytes<T>(task: SessionTask, signal: AbortSignal | undefined): Promise<EncodedJson<T>> {
    const out = await this.workers().run<ArrayBuffer>(task, signal ? { signal } : {});
    return new EncodedJson(Buffer.from(out));
  }

  /** The pool, made on the first call (the worker's script looked up once). */
  private workers(): WorkerPool {
    if (this.pool) return this.pool;
    const { script, eval: isEval } = this.options.script ?? workerScript('session-worker', __dirname);
    this.pool = new WorkerPool({
      script,
      eval: isEval,
      // One worker: it holds the index of the session it read last, and the machine has few cores.
      size: 1,
      timeoutMs: this.options.timeoutMs ?? TASK_LIMIT_MS,
      ...(this.options.onWorkerLost ? { onWorkerLost: this.options.onWorkerLost } : {}),
    });
    return this.pool;
  }

  close(): Promise<void> {
    return this.pool?.close() ?? Promise.resolve();
  }
}
