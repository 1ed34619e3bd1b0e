/**
 * The search index's owner: opens (or rebuilds) it in the cache folder, brings it up to date with
 * the listed session files one file at a time (newest first, pausing while a session opens), and
 * answers queries, saying whether the index is still being built.
 */
import { join } from 'node:path';
import { parseSearchQuery } from './rules/search-query';
import { CanopyError } from '../shared/errors';
import { throwawayCacheDir } from '../storage/cache-dir';
import {
  beginBulkLoad,
  builderAlive,
  deleteSearchDatabase,
  endBulkLoad,
  isBusy,
  isCorruption,
  openSearchDatabase,
  type SearchDatabase,
} from './storage/search-db';
import { SearchIndexer, type FileSync, type LineProblem } from './indexer';
import type { ParsedFile } from './file-parse';
import { AHEAD_MIN_FILES, ParseAhead } from './parse-ahead';
import { indexedFiles, withFileRow, type FileInfo, type SearchHit } from './query';
import { QueryPages, type Fallback } from './query-pages';
import { fileHits, stagedHits } from './staged-hits';
import { SessionNames } from './byte-search';
import { ReaderPool } from './reader-pool';
import { termIndex } from './term-index';
import { OpenGate } from '../threads/open-gate';

export const INDEX_FILE_NAME = 'search-index.sqlite';

/** Where the index of these roots lives (throws when the cache folder lies inside one of them). */
export function searchIndexPath(roots: readonly string[], env: Record<string, string | undefined>): string {
  return join(throwawayCacheDir(roots, env).dir, INDEX_FILE_NAME);
}

/** The status before any pass. */
export function idleSearchStatus(indexPath: string): SearchStatus {
  return { done: 0, total: 0, indexing: false, indexPath, rebuilt: null, problems: 0, error: null };
}

export interface SearchStatus {
  /** Files brought up to date in the current (or last) pass, of `total`. */
  done: number;
  total: number;
  indexing: boolean;
  /** Where the index lives (display). */
  indexPath: string;
  /** Why the existing index was thrown away and rebuilt, if it was. */
  rebuilt: string | null;
  /** Lines skipped because they are damaged, in the files indexed so far. */
  problems: number;
  error: string | null;
}

/** The index is held by another process's first build (not a fault: its files are read meanwhile). */
class IndexBusyError extends CanopyError {
  constructor(file: string) {
    super('io', `the search index is being built by another Canopy process (${file})`);
  }
}

export interface SearchAnswer {
  hits: SearchHit[];
  /** Continues the query where this page stopped (`cursor` of the next call); null: every hit was returned. */
  cursor: string | null;
  /** Why the query stopped early (cancelled by a newer one, a regex stopped), or null. */
  stopped: string | null;
  /** The index could not be used, so the files were read instead: why (null: the index answered). */
  fallback: string | null;
  /** The fallback was a fault of the index (it cannot be used), not another process building it. */
  indexFault: boolean;
  /** The index is still being built (its missing files are read directly meanwhile). */
  indexing: boolean;
  done: number;
  total: number;
}

export interface SearchServiceOptions {
  roots: readonly string[];
  env?: Record<string, string | undefined>;
  onStatus?: (status: SearchStatus) => void;
  onProblem?: (problem: LineProblem) => void;
  /** Each file a pass brought up to date (what it read and indexed). */
  onSynced?: (sync: FileSync) => void;
  /** How long a `re:` query may run on one slice before it is stopped (tests make it short). */
  regexLimitMs?: number;
  /** Indexing waits at its pause points while a session opens (default: a gate of its own). */
  gate?: OpenGate;
}

export interface QueryArgs {
  /** Hits a page holds at most (default 200, at most 5000). */
  limit?: number;
  /** Only these files (the listed sessions); default every indexed file. */
  paths?: ReadonlySet<string>;
  /** The previous page's cursor: the next page of the same query. */
  cursor?: string;
  /** Answer a page early, with its cursor, once it holds a hit and has run this long (the app shows hits as they come). */
  earlyMs?: number;
}

export class SearchService {
  private db: SearchDatabase | null = null;
  private indexer: SearchIndexer | null = null;
  private readonly file: string;
  private status: SearchStatus;
  /** Syncs run one at a time (one connection, one transaction). */
  private chain: Promise<unknown> = Promise.resolve();
  private wanted: string[] | null = null;
  private pass: Promise<void> | null = null;
  private closed = false;
  /** The files table as the last query read it; dropped by any change to the index. */
  private files: FileInfo[] | null = null;
  /** Session files queries read back, open across queries. */
  private readonly readers = new ReaderPool();
  /** The queries a cursor may continue. */
  private readonly pages: QueryPages;
  /** The files the last pass was asked for: a rebuild after damage indexes them again. */
  private lastPaths: readonly string[] = [];
  /** The index was created empty by this process: its first pass is a bulk load. */
  private fresh = false;

  private readonly gate: OpenGate;
  /** Session names the byte stage found, kept while their files are unchanged. */
  private readonly names = new SessionNames();

  constructor(private readonly options: SearchServiceOptions) {
    this.gate = options.gate ?? new OpenGate();
    this.pages = new QueryPages(options.regexLimitMs);
    this.file = searchIndexPath(options.roots, options.env ?? process.env);
    this.status = idleSearchStatus(this.file);
  }

  get indexPath(): string {
    return this.file;
  }

  private open(): SearchIndexer {
    if (this.indexer) return this.indexer;
    if (this.closed) throw new Error('the search index is closed');
    let opened;
    try {
      opened = openSearchDatabase(this.file);
    } catch (err) {
      // Another process building it is no fault: the files are read meanwhile.
      if (isBusy(err)) throw new IndexBusyError(this.file);
      // A cache fault (read-only, full, a folder in the way) is one clear line, not a trace.
      const why = err instanceof Error ? err.message : String(err);
      throw new CanopyError('io', `the search index cannot be used (${this.file}): ${why}`);
    }
    this.db = opened.db;
    if (opened.rebuilt) this.status.rebuilt = opened.rebuilt;
    this.fresh = opened.fresh;
    this.indexer = new SearchIndexer(this.db, () => !builderAlive(this.file));
    return this.indexer;
  }

  private startBulk(): void {
    const indexer = this.open();
    if (!this.fresh || indexer.bulk) return;
    this.fresh = false;
    beginBulkLoad(this.db!, this.file);
    indexer.beginBulk();
  }

  /** Commits a bulk load and puts the index back to its normal, crash-safe settings (merged when the pass completed). */
  private endBulk(complete = false): void {
    if (!this.indexer?.bulk) return;
    this.files = null; // its last terms listed mark its files indexed
    this.indexer.endBulk(complete);
    endBulkLoad(this.db!, this.file);
  }

  getStatus(): SearchStatus {
    return { ...this.status };
  }

  private emit(): void {
    this.options.onStatus?.(this.getStatus());
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /**
   * One file up to date (rebuilding a damaged index once). `parsed`: the file as a first build's
   * worker parsed it (parse-ahead.ts), written as it is when the index holds no rows of it yet.
   */
  async syncFile(path: string, parsed?: Promise<ParsedFile | null>): Promise<FileSync> {
    const ahead = parsed ? await parsed : null;
    return this.serial(async () => {
      // The files list a query keeps changes by this file's row alone (an append, a new file).
      const kept = this.files;
      this.files = null;
      try {
        const applied = ahead ? this.open().applyParsed(ahead) : null;
        const synced = applied ?? (await this.open().sync(path, undefined, this.gate.pause));
        // A bulk load marks its files indexed later, many at once (listBulkTerms): re-read then.
        if (kept && this.db && !this.indexer?.bulk) this.files = withFileRow(this.db, kept, path);
        return synced;
      } catch (err) {
        if (!isCorruption(err)) throw err;
        this.resetDamaged(err);
        return this.open().sync(path, undefined, this.gate.pause);
      }
    });
  }

  private resetDamaged(err: unknown): void {
    this.shut();
    this.status.rebuilt = `the index was damaged (${err instanceof Error ? err.message : String(err)})`;
    // Not openable → openSearchDatabase recreates it; openable but damaged → remove it first.
    deleteSearchDatabase(this.file);
  }

  /**
   * Brings the index up to date with `paths` (newest first) and forgets other files. A new call
   * while a pass runs replaces the rest of its list; the returned promise ends with the last pass.
   */
  update(paths: readonly string[]): Promise<void> {
    this.wanted = [...paths];
    this.lastPaths = this.wanted;
    if (!this.pass) {
      this.pass = this.runPasses().finally(() => {
        this.pass = null;
      });
    }
    return this.pass;
  }

  private async runPasses(): Promise<void> {
    while (this.wanted) {
      const paths = this.wanted;
      this.wanted = null;
      this.status = { ...this.status, done: 0, total: paths.length, indexing: true, error: null };
      this.emit();
      let ahead: ParseAhead | null = null;
      try {
        await this.serial(async () => {
          this.files = null;
          this.open().prune(new Set(paths));
          this.startBulk();
        });
        let lastEmit = performance.now();
        // A first build of many files parses them ahead in a worker while this thread inserts.
        ahead = this.indexer?.bulk && paths.length >= AHEAD_MIN_FILES ? new ParseAhead(paths) : null;
        for (let i = 0; i < paths.length && !this.wanted && !this.closed; i++) {
          const wait = this.gate.pause();
          if (wait) await wait;
          // Another process's first build owns the index until it ends: this pass stops (its files are read directly).
          if (builderAlive(this.file)) break;
          try {
            const r = await this.syncFile(paths[i]!, ahead?.take(i));
            this.options.onSynced?.(r);
            this.status.problems += r.problems.length;
            for (const p of r.problems) this.options.onProblem?.(p);
          } catch (err) {
            if (isBusy(err)) break;
            // An unreadable file is skipped (listing reports it); the others still get indexed.
            this.options.onProblem?.({
              path: paths[i]!,
              line: 0,
              message: err instanceof Error ? err.message : String(err),
            });
          }
          this.status.done = i + 1;
          if (performance.now() - lastEmit > 250) {
            lastEmit = performance.now();
            this.emit();
          }
        }
      } catch (err) {
        this.status.error = err instanceof Error ? err.message : String(err);
      } finally {
        ahead?.close();
      }
    }
    await this.serial(async () => {
      this.endBulk(true);
      // The term list is read into memory now rather than by the next query (~1 s on the 10k store).
      if (this.db) termIndex(this.db);
    }).catch((err: unknown) => {
      this.status.error = err instanceof Error ? err.message : String(err);
    });
    this.status.indexing = false;
    this.emit();
  }

  /**
   * A page of hits for `text` among `paths` (default every indexed file), or with `cursor` the next
   * page of that query; a bad query or cursor is CanopyError invalid_argument. A cursor continues the
   * candidates its query read when it started (rowid order; a filter-only query also reaches rows
   * added since, which have higher rowids): rows removed since (a file re-indexed) are skipped, a hit
   * already answered is never answered again, and a new query finds every line indexed since.
   */
  async query(text: string, opts: QueryArgs = {}): Promise<SearchAnswer> {
    const first = await this.queryOnce(text, opts);
    if (first) return first;
    // Damaged at query time: rebuilt from the files last asked for, then asked again (never "0 hits").
    if (opts.cursor !== undefined)
      throw new CanopyError('invalid_argument', 'the search index was damaged and is rebuilt: run the query again');
    await this.update(this.lastPaths);
    const again = await this.queryOnce(text, opts);
    if (!again) throw new CanopyError('io', `the search index is damaged again after a rebuild (${this.file})`);
    return again;
  }

  /** One query; null when the index turned out damaged (it is then reset). */
  private async queryOnce(text: string, opts: QueryArgs): Promise<SearchAnswer | null> {
    const parsed = parseSearchQuery(text);
    if (!parsed.ok) throw new CanopyError('invalid_argument', parsed.error);
    const limit = Math.max(1, Math.min(opts.limit ?? 200, 5000));
    // A new query stops the page an older one is reading before it waits for its turn on the index.
    let live = opts.cursor === undefined ? null : this.pages.resume(opts.cursor, text);
    if (!live) this.pages.cancelRunning();
    const result = await this.serial(async () => {
      try {
        if (!live) {
          const usable = this.usable(opts.paths);
          // The files a first build reached are searched through the index once their terms are listed.
          if (usable === true) this.indexer!.listTermsIfDue();
          // Listing a bulk load's terms marks its files indexed: the list a query kept is stale.
          if (this.indexer?.bulk) this.files = null;
          const stream =
            usable === true
              ? stagedHits(this.db!, parsed.query, {
                  files: (this.files ??= indexedFiles(this.db!)),
                  readers: this.readers,
                  names: this.names,
                  ...(opts.paths ? { paths: opts.paths } : {}),
                })
              : fileHits(opts.paths!, parsed.query, this.names);
          live = this.pages.start(text, stream, parsed.query.regex !== null, usable === true ? null : usable);
        } else if (live.fallback === null) this.open();
        return { page: await this.pages.page(live, limit, opts.earlyMs), fallback: live.fallback };
      } catch (err) {
        if (!isCorruption(err)) throw err;
        this.resetDamaged(err);
        return null;
      }
    });
    if (!result) return null;
    const { page, fallback } = result;
    return {
      ...page,
      fallback: fallback?.why ?? null,
      indexFault: fallback?.fault ?? false,
      indexing: this.status.indexing,
      done: this.status.done,
      total: this.status.total,
    };
  }

  /**
   * True when the index opens; else, when the query names its files, why not (they are then read
   * directly); without them, the index's CanopyError.
   */
  private usable(paths: ReadonlySet<string> | undefined): true | Fallback {
    try {
      this.open();
      // Another process is building it: what it committed so far is not a whole file's rows.
      if (paths && builderAlive(this.file)) throw new IndexBusyError(this.file);
      return true;
    } catch (err) {
      if (!(err instanceof CanopyError) || !paths) throw err;
      return { why: `${err.message}: searched the files directly`, fault: !(err instanceof IndexBusyError) };
    }
  }

  /** Closes the index for good (a pass still running stops at its next file). */
  close(): void {
    this.closed = true;
    try {
      this.endBulk();
    } finally {
      this.shut();
    }
  }

  private shut(): void {
    this.files = null;
    this.pages.clear();
    this.readers.close();
    this.db?.close();
    this.db = null;
    this.indexer = null;
  }
}
