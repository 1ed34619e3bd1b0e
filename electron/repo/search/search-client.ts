/**
 * The app's search, run in a worker thread (workers/search-worker.ts): indexing (reading and
 * parsing every session), queries and `re:` all happen there, so the loop that answers requests
 * only routes. Same methods as SearchService. A worker that dies, or a query past its time limit
 * (the worker is then ended: the only way to stop running JavaScript), answers its calls with an
 * error; the next call starts a new worker, which resumes indexing where the index stands.
 */
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { CanopyError, isErrorCode } from '../../shared/errors';
import { throwawayCacheDir } from '../../storage/cache-dir';
import { workerScript, type WorkerScript } from '../../workers/worker-script';
import type { OpenGate } from '../open-gate';
import type { FileSync } from './indexer';
import {
  INDEX_FILE_NAME,
  type QueryArgs,
  type SearchAnswer,
  type SearchServiceOptions,
  type SearchStatus,
} from './search-service';

/** What the worker is started with (cloned into it). */
export interface SearchWorkerData {
  roots: readonly string[];
  env: Record<string, string | undefined>;
  regexLimitMs?: number;
}

export type SearchCall =
  | { method: 'update'; paths: readonly string[] }
  | { method: 'syncFile'; path: string }
  | { method: 'query'; text: string; opts: Omit<QueryArgs, 'paths'> & { paths?: string[] } };

export type ToSearchWorker = { kind: 'call'; id: number; call: SearchCall } | { kind: 'gate'; held: boolean };

export type FromSearchWorker =
  | { kind: 'reply'; id: number; ok: true; value: unknown }
  | { kind: 'reply'; id: number; ok: false; error: { code?: string; message: string } }
  | { kind: 'status'; status: SearchStatus };

/** A query answers within this long, or its worker is ended (a `re:` slice is stopped far sooner, at 1 s). */
const QUERY_LIMIT_MS = 30_000;

export interface SearchClientOptions extends Pick<SearchServiceOptions, 'roots' | 'env' | 'onStatus' | 'regexLimitMs'> {
  gate?: OpenGate;
  /** How long a query may run before its worker is ended (tests make it short). */
  queryLimitMs?: number;
  /** Told when the worker died or was ended (for the log). */
  onWorkerLost?: (reason: string) => void;
  /** The worker's code (default: workers/search-worker next to this bundle). */
  script?: WorkerScript;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  timer: ReturnType<typeof setTimeout> | null;
}

export class SearchClient {
  readonly indexPath: string;
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private status: SearchStatus;
  private closed = false;
  /** The last listing asked for: a new worker indexes it again (what is indexed already is skipped). */
  private lastPaths: readonly string[] | null = null;
  private gateHeld = false;
  private readonly unwatch: (() => void) | null;

  constructor(private readonly options: SearchClientOptions) {
    // Checked here, not in the worker: a cache folder inside a root turns search off at once, as in-process.
    const { dir } = throwawayCacheDir(options.roots, options.env ?? process.env);
    this.indexPath = join(dir, INDEX_FILE_NAME);
    this.status = {
      done: 0,
      total: 0,
      indexing: false,
      indexPath: this.indexPath,
      rebuilt: null,
      problems: 0,
      error: null,
    };
    this.unwatch =
      options.gate?.watch((held) => {
        this.gateHeld = held;
        this.worker?.postMessage({ kind: 'gate', held } satisfies ToSearchWorker);
      }) ?? null;
  }

  getStatus(): SearchStatus {
    return { ...this.status };
  }

  update(paths: readonly string[]): Promise<void> {
    this.lastPaths = paths;
    return this.call<void>({ method: 'update', paths }, null);
  }

  syncFile(path: string): Promise<FileSync> {
    return this.call<FileSync>({ method: 'syncFile', path }, null);
  }

  query(text: string, opts: QueryArgs = {}): Promise<SearchAnswer> {
    const { paths, ...rest } = opts;
    return this.call<SearchAnswer>(
      { method: 'query', text, opts: { ...rest, ...(paths ? { paths: [...paths] } : {}) } },
      this.options.queryLimitMs ?? QUERY_LIMIT_MS,
    );
  }

  close(): void {
    this.closed = true;
    this.unwatch?.();
    this.fail(new CanopyError('cancelled', 'search closed'));
    void this.worker?.terminate();
    this.worker = null;
  }

  private call<T>(call: SearchCall, limitMs: number | null): Promise<T> {
    if (this.closed) return Promise.reject(new CanopyError('cancelled', 'search closed'));
    const worker = this.ensure();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const p: Pending = { resolve: resolve as (v: unknown) => void, reject, timer: null };
      if (limitMs !== null) {
        p.timer = setTimeout(
          () => this.lose(worker, `the search ran longer than ${limitMs} ms and was stopped`, 'io'),
          limitMs,
        );
      }
      this.pending.set(id, p);
      worker.ref();
      worker.postMessage({ kind: 'call', id, call } satisfies ToSearchWorker);
    });
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const { script, eval: isEval } = this.options.script ?? workerScript('search-worker');
    const data: SearchWorkerData = {
      roots: this.options.roots,
      env: { ...(this.options.env ?? process.env) },
      ...(this.options.regexLimitMs !== undefined ? { regexLimitMs: this.options.regexLimitMs } : {}),
    };
    const worker = new Worker(script, { eval: isEval, workerData: data });
    worker.on('message', (m: FromSearchWorker) => this.receive(m));
    worker.on('error', (err) => this.lose(worker, `search failed: ${err.message}`));
    worker.on('exit', (code) => this.lose(worker, `search stopped (exit code ${code})`));
    worker.unref();
    this.worker = worker;
    if (this.gateHeld) worker.postMessage({ kind: 'gate', held: true } satisfies ToSearchWorker);
    // Indexing goes on in the new worker; the caller of the lost update was already answered.
    if (this.lastPaths) {
      const id = this.nextId++;
      worker.postMessage({
        kind: 'call',
        id,
        call: { method: 'update', paths: this.lastPaths },
      } satisfies ToSearchWorker);
    }
    return worker;
  }

  private receive(m: FromSearchWorker): void {
    if (m.kind === 'status') {
      this.status = m.status;
      this.options.onStatus?.(this.getStatus());
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
    void worker.terminate();
    this.status = { ...this.status, indexing: false };
    this.fail(new CanopyError(code, reason));
    if (!this.closed) this.options.onWorkerLost?.(reason);
  }

  private fail(err: CanopyError): void {
    for (const p of this.pending.values()) {
      if (p.timer) clearTimeout(p.timer);
      p.reject(err);
    }
    this.pending.clear();
  }
}
