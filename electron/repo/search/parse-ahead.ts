/**
 * A first build's files parsed ahead in a worker thread (workers/index-parse-worker.ts) while the
 * indexer inserts what was parsed before: parsing and FTS5's inserts each take a core. A file the
 * worker could not parse, or too big to hand over whole, is parsed by the indexer as it comes.
 */
import { statPathOrNull } from '../../storage/stat';
import { WorkerPool } from '../../workers/pool';
import { workerScript } from '../../workers/worker-script';
import type { ParsedFile } from './file-parse';

/** Files parsed ahead of the one being inserted (a few: each waits whole in memory). */
const DEPTH = 4;
/** A file past this many bytes is parsed by the indexer (in slices, without holding it whole). */
export const AHEAD_MAX_BYTES = 16 * 1024 * 1024;
/** Fewer files than this are parsed by the indexer alone (a worker costs its start). */
export const AHEAD_MIN_FILES = 16;

export class ParseAhead {
  private readonly pool: WorkerPool | null;
  private readonly asked = new Map<number, Promise<ParsedFile | null>>();
  private next = 0;

  constructor(private readonly paths: readonly string[]) {
    let pool: WorkerPool | null = null;
    try {
      const { script, eval: isEval } = workerScript('index-parse-worker');
      pool = new WorkerPool({ script, eval: isEval, size: 1, timeoutMs: 120_000 });
    } catch {
      pool = null; // no worker script: every file is parsed by the indexer
    }
    this.pool = pool;
  }

  private ask(i: number): Promise<ParsedFile | null> {
    const path = this.paths[i]!;
    const size = statPathOrNull(path)?.size ?? 0;
    if (!this.pool || size > AHEAD_MAX_BYTES) return Promise.resolve(null);
    // Any failure (gone, unreadable, the worker lost) leaves the file to the indexer, which reports it.
    return this.pool.run<ParsedFile>({ path }).catch(() => null);
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
    this.asked.clear();
    void this.pool?.close();
  }
}
