/**
 * The app's search, run in a worker thread (search-worker.ts, through service-client.ts):
 * indexing (reading and parsing every session), queries and `re:` all happen there, so the loop
 * that answers requests only routes. Same methods as SearchService. A query past its time limit
 * ends the worker; the next call starts a new one, which resumes indexing where the index stands.
 */
import { ServiceClient } from '../threads/service-client';
import { workerScript, type WorkerScript } from '../threads/worker-script';
import type { OpenGate } from '../threads/open-gate';
import type { FileSync } from './indexer';
import {
  idleSearchStatus,
  searchIndexPath,
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

/** A query's options as they cross to the worker (a set of paths as a list). */
export type WireQueryArgs = Omit<QueryArgs, 'paths'> & { paths?: string[] };

/** A query answers within this long, or its worker is ended (a `re:` slice is stopped far sooner, at 1 s). */
const QUERY_LIMIT_MS = 30_000;

export interface SearchClientOptions extends Pick<SearchServiceOptions, 'roots' | 'env' | 'onStatus' | 'regexLimitMs'> {
  gate?: OpenGate;
  /** How long a query may run before its worker is ended (tests make it short). */
  queryLimitMs?: number;
  /** Told when the worker died or was ended (for the log). */
  onWorkerLost?: (reason: string) => void;
  /** The worker's code (default: search-worker next to this bundle). */
  script?: WorkerScript;
}

export class SearchClient {
  readonly indexPath: string;
  private readonly client: ServiceClient<SearchStatus>;

  constructor(private readonly options: SearchClientOptions) {
    // Checked here, not in the worker: a cache folder inside a root turns search off at once, as in-process.
    const env = { ...(options.env ?? process.env) };
    this.indexPath = searchIndexPath(options.roots, env);
    const data: SearchWorkerData = {
      roots: options.roots,
      env,
      ...(options.regexLimitMs !== undefined ? { regexLimitMs: options.regexLimitMs } : {}),
    };
    this.client = new ServiceClient<SearchStatus>({
      name: 'search',
      script: options.script ?? workerScript('search-worker', __dirname),
      workerData: data,
      ...(options.gate ? { gate: options.gate } : {}),
      status: idleSearchStatus(this.indexPath),
      stopped: (s) => ({ ...s, indexing: false }),
      ...(options.onStatus ? { onStatus: options.onStatus } : {}),
      ...(options.onWorkerLost ? { onWorkerLost: options.onWorkerLost } : {}),
    });
  }

  getStatus(): SearchStatus {
    return this.client.status();
  }

  update(paths: readonly string[]): Promise<void> {
    this.client.resumeBy('update', [paths]);
    return this.client.call<void>('update', [paths]);
  }

  syncFile(path: string): Promise<FileSync> {
    return this.client.call<FileSync>('syncFile', [path]);
  }

  query(text: string, opts: QueryArgs = {}): Promise<SearchAnswer> {
    const { paths, ...rest } = opts;
    const wire: WireQueryArgs = { ...rest, ...(paths ? { paths: [...paths] } : {}) };
    return this.client.call<SearchAnswer>('query', [text, wire], this.options.queryLimitMs ?? QUERY_LIMIT_MS);
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
