/**
 * A first build's files parsed ahead in a worker thread (index-parse-worker.ts) while the
 * indexer inserts what was parsed before: parsing and FTS5's inserts each take a core. A few files
 * are asked for at once (a pool's one task at a time left the worker waiting for this thread's next
 * turn). A file the worker could not parse, too big to hand over whole, or asked of a worker that
 * failed, is parsed by the indexer as it comes.
 */
import { Worker } from 'node:worker_threads';
import { statPathOrNull } from '../storage/stat';
import { workerScript } from '../threads/worker-script';
import type { ParsedFile } from './file-parse';

/** Files asked for ahead of the one being inserted (a few: each waits whole in memory). */
const DEPTH = 4;
/** A file past this many bytes is parsed by the indexer (in slices, without holding it whole). */
export const AHEAD_MAX_BYTES = 16 * 1024 * 1024;
/** Fewer files than this are parsed by the indexer alone (a worker costs its start). */
export const AHEAD_MIN_FILES = 16;

type Reply = { id: number; ok: true; value: ParsedFile } | { id: number; ok: false };

export class ParseAhead {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, (parsed: ParsedFile | null) => void>();
  private readonly asked = new Map<number, Promise<ParsedFile | null>>();
  private next = 0;

  constructor(private readonly paths: readonly string[]) {
    try {
      const { script, eval: isEval } = workerScript('index-parse-worker', __dirname);
      const worker = new Worker(script, { eval: isEval });
      worker.on('message', (reply: Reply) => this.answer(reply.id, reply.ok ? reply.value : null));
      // A worker that fails or exits leaves every file asked of it, and those after, to the indexer.
      worker.on('error', () => this.close());
      worker.on('exit', () => this.close());
      worker.unref();
      this.worker = worker;
    } catch {
      this.worker = null; // no worker script: every file is parsed by the indexer
    }
  }

  private answer(id: number, parsed: ParsedFile | null): void {
    const resolve = this.waiting.get(id);
    this.waiting.delete(id);
    // An idle worker does not keep the process alive; one with files asked of it does.
    if (this.waiting.size === 0) this.worker?.unref();
    resolve?.(parsed);
  }

  private ask(i: number): Promise<ParsedFile | null> {
    const path = this.paths[i]!;
    if (!this.worker || (statPathOrNull(path)?.size ?? 0) > AHEAD_MAX_BYTES) return Promise.resolve(null);
    const worker = this.worker;
    return new Promise((resolve) => {
      this.waiting.set(i, resolve);
      worker.ref();
      worker.postMessage({ id: i, task: { path } });
    });
  }

  /** The parse of `paths[i]` (null: parse it in this thread), with the next few asked for. */
  take(i: number): Promise<ParsedFile | null> {
    this.next = Math.max(this.next, i);
    while (this.next <= i + DEPTH && this.next < this.paths.length) {
      this.asked.set(this.next, this.ask(this.next));
      this.next++;
    }
    const parsed = this.asked.get(i) ?? Promise.resolve(null);
    this.asked.delete(i);
    return parsed;
  }

  close(): void {
    const worker = this.worker;
    this.worker = null;
    for (const id of [...this.waiting.keys()]) this.answer(id, null);
    this.asked.clear();
    void worker?.terminate();
  }
}
