/**
 * Search for the app: indexes the catalog's listed sessions in the background once they are
 * listed (newest first, pausing while a session opens), follows appends, and answers with the
 * catalog's session ids (the renderer never sees paths it could send back).
 */
import { newestFirstPaths } from '../repo/listing-rows';
import type { OpenGate } from '../threads/open-gate';
import type { EventBus } from '../repo/event-bus';
import { throttledStatus } from '../repo/progress';
import type {
  SearchHitDto,
  SearchResultDto,
  SearchStatusDto,
  SessionListDto,
  SessionRowDto,
  SessionsChangeDto,
} from '../shared/dto';
import { CanopyError } from '../shared/errors';
import { searchTimeIso } from './rules/search-text';
import type { SearchStatus } from './search-service';
import { SearchClient } from './search-client';

/** A page answers what it has after this long (with a hit), so the panel shows hits as they are found. */
const EARLY_PAGE_MS = 150;

export interface AppSearchOptions {
  /** Every folder sessions may come from (roots and the demo folder): the index is kept out of them. */
  roots: readonly string[];
  bus?: EventBus;
  env?: Record<string, string | undefined>;
  /** The catalog's rows: hits are named by the listed row of their file (no copy of the listing is kept here). */
  rows: ListedRows;
  /** Indexing gives way while a session opens. */
  gate?: OpenGate;
}

/** What search reads of the catalog (SessionCatalog implements it). */
export interface ListedRows {
  rowAt(path: string): Pick<SessionRowDto, 'sessionId' | 'fileName'> | undefined;
  listedPaths(): ReadonlySet<string>;
}

function statusDto(s: SearchStatus | null, error: string | null): SearchStatusDto {
  if (!s) return { indexing: false, done: 0, total: 0, indexPath: null, problems: 0, error };
  return {
    indexing: s.indexing,
    done: s.done,
    total: s.total,
    indexPath: s.indexPath,
    problems: s.problems,
    error: s.error ?? error,
  };
}

export class AppSearch {
  private service: SearchClient | null = null;
  private failure: string | null = null;
  private updating: Promise<void> | null = null;
  private lastListing: SessionListDto | null = null;

  constructor(private readonly options: AppSearchOptions) {
    try {
      // Indexing, queries and regexes run in a worker thread: this loop only routes.
      this.service = new SearchClient({
        roots: options.roots,
        ...(options.env ? { env: options.env } : {}),
        onStatus: throttledStatus(
          (s: SearchStatus) => options.bus?.emit('search.progress', statusDto(s, null)),
          (s) => !s.indexing,
        ),
        onWorkerLost: (why) => options.bus?.emit('search.progress', statusDto(this.service?.getStatus() ?? null, why)),
        ...(options.gate ? { gate: options.gate } : {}),
      });
    } catch (err) {
      // The cache folder cannot be used (it lies inside a session root): search is off, the app is not.
      this.failure = err instanceof Error ? err.message : String(err);
    }
  }

  /** A new listing: index its sessions, newest first (the previous pass gives way; the same listing again: nothing). */
  listed(listing: SessionListDto): void {
    if (listing === this.lastListing) return;
    this.lastListing = listing;
    const paths = newestFirstPaths(listing.sessions);
    this.updating = this.service?.update(paths).catch(() => undefined) ?? null;
  }

  /** Rows the catalog added or changed (a session grew): their new lines become searchable now, not at the next full pass. */
  async rowsChanged(change: SessionsChangeDto): Promise<void> {
    for (const row of [...change.added, ...change.changed]) {
      await this.service?.syncFile(row.path).catch(() => undefined);
    }
  }

  status(): SearchStatusDto {
    return statusDto(this.service?.getStatus() ?? null, this.failure);
  }

  /** Settles when the current pass ends (tests, benchmarks). */
  async idle(): Promise<void> {
    await this.updating;
  }

  /** A page of hits; `cursor` (from the previous page of the same query) continues it. */
  async query(text: string, limit = 200, cursor?: string): Promise<SearchResultDto> {
    if (!this.service) throw new CanopyError('io', `search is unavailable: ${this.failure ?? 'no index'}`);
    const paths = this.options.rows.listedPaths();
    const answer = await this.service.query(text, {
      limit,
      paths,
      earlyMs: EARLY_PAGE_MS,
      ...(cursor === undefined ? {} : { cursor }),
    });
    const hits: SearchHitDto[] = [];
    for (const h of answer.hits) {
      const known = this.options.rows.rowAt(h.path);
      if (!known) continue;
      hits.push({
        sessionId: known.sessionId,
        entryId: h.entryId,
        line: h.line,
        role: h.role,
        field: h.field,
        time: searchTimeIso(h.time),
        snippet: h.snippet,
        match: h.match,
        sessionName: h.sessionName,
        cwd: h.cwd,
        fileName: known.fileName,
      });
    }
    const status = this.status();
    // Read from the files because the index cannot be used: the panel says so in its one status line.
    if (answer.fallback) status.error = answer.fallback;
    return { hits, cursor: answer.cursor, stopped: answer.stopped, status };
  }

  /** Settles once the worker has exited (its index closed). */
  close(): Promise<void> {
    return this.service?.close() ?? Promise.resolve();
  }
}
