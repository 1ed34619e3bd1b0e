/**
 * The catalog owns what exists: the session roots and what the user opened, the rows (sessions by
 * id, never by path for the renderer) and their listing, confinement, the open files (its store),
 * summaries, and the watcher. Watcher batches and its own writes change rows in place and are
 * published as row changes (listing-table.ts). Every path it hands out came from listing the
 * configured roots and is re-checked against them. The work on one session is session-service.ts's.
 */
import type { EventBus } from './event-bus';
import type { SessionListDto, SessionRowDto, SessionsChangeDto, SessionSummaryDto } from '../shared/dto';
import { CanopyError } from '../shared/errors';
import { realPathSync, statPathOrNull } from '../storage/stat';
import {
  assignIds,
  confineListing,
  linkParents,
  groupProjects,
  mergeListings,
  outside,
  safeReal,
  type Known,
} from './listing-rows';
import { diffListings, ListingTable } from './listing-table';
import { insideRealRoots, realRoots } from './confine';
import { WRITER_IDLE_MS } from './session-file';
import { SessionStore, type StoreOpenOptions } from './session-store';
import { PROGRESS_DELAY_MS, PROGRESS_GAP_MS } from './session-tasks';
import { delayedProgress } from './progress';
import { readOnlyReasonOf } from './read-only';
import { publishAppended } from './live-events';
import { listOpened, OpenedSet } from './opened-paths';
import { ListingCache, listSessionFiles, listSessions, summarizeSession } from './sessions';
import { watchRoots, type StopWatching } from '../storage/watch';

export interface CatalogOptions {
  roots: string[];
  bus?: EventBus;
  readOnlyRoots?: string[]; // never forked next to (the team database's mirror)
  /** Shown when the roots hold no session at all. */
  demoDir?: string;
  /** Opens and listings report progress once they have run this long (default 200 ms). */
  progressDelayMs?: number;
  /** A session file written to less than this long ago is still being written (default WRITER_IDLE_MS). */
  writerIdleMs?: number;
  /** The clock writerIdleMs is measured with (tests). */
  now?: () => number;
  /**
   * session.open answers from the index alone (`pending`, no body read) for files larger than this
   * (default 4 MiB); smaller files get their previews in the same answer.
   */
  lazyAboveBytes?: number;
  /** Estimated bytes the open sessions may hold together (session-store.ts; default STORE_BUDGET_BYTES). */
  storeBudgetBytes?: number;
}

const LAZY_ABOVE_BYTES = 4 * 1024 * 1024;

/** What the session service reads of the catalog's options. */
export interface CatalogSettings {
  bus: EventBus | undefined;
  progressDelayMs: number;
  lazyAboveBytes: number;
  /** How a view of a session being written is taken (SessionStore, OpenOptions.writerIdleMs). */
  live: Pick<StoreOpenOptions, 'writerIdleMs' | 'now'>;
}

export class SessionCatalog {
  readonly roots: string[];
  private readonly bus: EventBus | undefined;
  private readonly demoDir: string | undefined;
  private readonly readOnlyRoots: string[];
  private demo = false;
  /** The rows by id and path, and the listing they make (changed row by row, never thrown away). */
  private readonly rows = new ListingTable();
  private readonly rowListeners = new Set<(change: SessionsChangeDto) => void>();
  private listingPromise: Promise<SessionListDto> | null = null;
  /** Folders and files the user opened beyond the roots (paths from main only), and uploads. */
  readonly opened = new OpenedSet();
  readonly settings: CatalogSettings;
  /** The owner of every session this catalog has open. */
  readonly store: SessionStore;
  /** Headers and summaries read by listing, by (path, size, mtime). */
  private readonly listed = new ListingCache();

  constructor(options: CatalogOptions) {
    this.roots = options.roots;
    this.bus = options.bus;
    this.demoDir = options.demoDir;
    this.readOnlyRoots = options.readOnlyRoots ?? [];
    this.settings = {
      bus: options.bus,
      progressDelayMs: options.progressDelayMs ?? PROGRESS_DELAY_MS,
      lazyAboveBytes: options.lazyAboveBytes ?? LAZY_ABOVE_BYTES,
      live: { writerIdleMs: options.writerIdleMs ?? WRITER_IDLE_MS, ...(options.now ? { now: options.now } : {}) },
    };
    this.store = new SessionStore(
      options.storeBudgetBytes !== undefined ? { budgetBytes: options.storeBudgetBytes } : {},
    );
  }

  /** The roots that exist (the demo folder when showing demos), then the opened folders and files. */
  rootsForDisplay(): string[] {
    const roots = this.demo && this.demoDir ? [this.demoDir] : this.roots.filter((r) => safeReal(r) !== null);
    return [
      ...roots,
      ...this.opened.roots(),
      ...this.opened.singleFiles().filter((f) => this.opened.originOf(f) !== 'uploaded'),
    ];
  }

  isDemo(): boolean {
    return this.demo;
  }

  /** The roots paths are confined to (the demo folder when showing demos). */
  private activeRoots(): string[] {
    return this.demo && this.demoDir ? [this.demoDir] : this.roots;
  }

  /** The active roots plus what the user opened: opened folders, and opened files as roots of one file. */
  private confinedRoots(): string[] {
    return [...this.activeRoots(), ...this.opened.roots(), ...this.opened.singleFiles()];
  }

  /** Adds folders and files chosen in main (dialog, argv, CLI); returns the ids of the files' sessions. */
  async openPaths(paths: readonly string[]): Promise<{ sessionIds: string[] }> {
    const files = paths
      .map((p) => this.opened.addPath(p))
      .filter((p) => p.kind === 'file')
      .map((p) => p.real);
    const listing = await this.list(true);
    return { sessionIds: files.flatMap((real) => this.idOfFile(listing, real)) };
  }

  /** Keeps uploaded text, or the file serve streamed to `staged` (moved), as an "uploaded" session; refused when it is no pi session. */
  async upload(name: string, content: string | { staged: string }): Promise<{ sessionId: string }> {
    const roots = realRoots([...this.activeRoots(), ...this.opened.roots()]);
    const { real, evicted } =
      typeof content === 'string'
        ? await this.opened.addUpload(name, content, roots)
        : await this.opened.adoptUpload(name, content.staged, roots);
    const listing = await this.list();
    for (const path of evicted) {
      const k = this.rows.atPath(path);
      if (k) this.rows.remove(k);
      this.store.forget(path);
    }
    // Added as a new row: a listed id keeps naming its file, so a copy of a listed session gets its `~hash` key.
    const row = this.rows.atPath(real)?.row ?? (await this.insertRows([real]))[0];
    this.publish('added');
    if (row) return { sessionId: row.sessionId };
    const skip = listing.skipped.find((s) => s.path === real);
    throw new CanopyError(
      skip?.error.code === 'unsupported_format' ? 'unsupported_format' : 'invalid_session',
      `${name}: ${skip?.error.message ?? 'not a pi session'}`,
    );
  }

  /** Where serve streams an upload's bytes (a private folder outside every root). */
  uploadStagingPath(): string {
    return this.opened.stagingPath(realRoots([...this.activeRoots(), ...this.opened.roots()]));
  }

  /** A listed session named by its id or its file's path (the palette); never adds anything. */
  async find(idOrPath: string): Promise<{ sessionId: string }> {
    const listing = await this.list();
    const known = this.rows.get(idOrPath);
    if (known) return { sessionId: known.row.sessionId };
    let real: string | null = null;
    try {
      real = realPathSync(idOrPath);
    } catch {
      // not a path on this machine
    }
    const [sessionId] = real ? this.idOfFile(listing, real) : [];
    if (sessionId) return { sessionId };
    throw new CanopyError(
      'not_found',
      `${idOrPath} is no listed session: open a file with File ▸ Open… or \`canopy FILE\``,
    );
  }

  private idOfFile(listing: SessionListDto, real: string): string[] {
    const row = listing.sessions.find((r) => r.path === real || safeReal(r.path) === real);
    return row ? [row.sessionId] : [];
  }

  /** Why a session cannot be forked (null: it can). */
  readOnlyReason(sessionId: string): string | null {
    return readOnlyReasonOf(this.demo, this.rows.get(sessionId)?.row, this.readOnlyRoots);
  }

  /**
   * A file Canopy wrote (a fork): its header is read and its row joins the listing (no relisting;
   * next to an opened file, it is listed with it); `sessions.changed` carries the new row.
   */
  async addWritten(path: string): Promise<SessionRowDto | null> {
    if (outside(realRoots([...this.activeRoots(), ...this.opened.roots()]), path)) this.opened.addWritten(path);
    const listing = await this.list();
    const row = this.rows.atPath(path)?.row ?? (await this.insertRows([path]))[0] ?? this.rowOfFile(listing, path);
    this.publish('added');
    return row;
  }

  /** Rows for new files (their headers read, confined); those that cannot be listed are skipped, gone ones ignored. */
  private async insertRows(paths: readonly string[]): Promise<SessionRowDto[]> {
    const probed = confineListing(await listSessionFiles(paths, this.listed), this.confinedRoots());
    for (const s of probed.skipped) if (s.error.code !== 'not_found') this.rows.skip(s);
    const configured = realRoots(this.roots);
    return assignIds(probed.sessions).map((k) => {
      const origin = outside(configured, k.path) ? this.opened.originOf(k.path) : null;
      if (origin) k.row.origin = origin;
      return this.rows.add(k);
    });
  }

  /** Sends what changed since the last call to the views and to the row listeners (search). */
  private publish(reason: 'added' | 'changed' | 'removed'): void {
    const change = this.rows.take();
    if (!change) return;
    for (const listener of this.rowListeners) listener(change);
    this.bus?.emit('sessions.changed', { reason, change });
  }

  /** Calls `listener` with each change to the rows (not with whole new listings: see list()). */
  onRowsChanged(listener: (change: SessionsChangeDto) => void): () => void {
    this.rowListeners.add(listener);
    return () => this.rowListeners.delete(listener);
  }

  /** The row listed for `path`, if any (the search index names its hits by path). */
  rowAt(path: string): SessionRowDto | undefined {
    return this.rows.atPath(path)?.row;
  }

  /** The row listed as `sessionId` (an alias too), if any. */
  rowOf(sessionId: string): SessionRowDto | undefined {
    return this.rows.get(sessionId)?.row;
  }

  /** The rows whose header names `sessionId`'s file as their parent (indexed once per listing change). */
  childrenOf(sessionId: string): readonly SessionRowDto[] {
    return this.rows.childrenOf(sessionId);
  }

  /** The listed paths, as of now. */
  listedPaths(): ReadonlySet<string> {
    return this.rows.paths();
  }

  private rowOfFile(listing: SessionListDto, path: string): SessionRowDto | null {
    const real = safeReal(path);
    return listing.sessions.find((r) => r.path === path || (real !== null && safeReal(r.path) === real)) ?? null;
  }

  /** Drops the uploaded copies and closes the open sessions (the app or server is closing). */
  close(): void {
    this.store.clear();
    this.opened.close();
  }

  async list(refresh = false): Promise<SessionListDto> {
    const listing = this.rows.listing;
    if (listing && !refresh) return listing;
    if (!this.listingPromise) {
      this.listingPromise = this.buildListing().finally(() => (this.listingPromise = null));
    }
    return this.listingPromise;
  }

  private async buildListing(): Promise<SessionListDto> {
    const bus = this.bus;
    const onProgress =
      bus &&
      delayedProgress(
        (done, total) => bus.emit('sessions.progress', { done, total }),
        this.settings.progressDelayMs,
        PROGRESS_GAP_MS,
      );
    let result = await listSessions(this.roots, {
      cache: this.listed,
      ...(onProgress ? { onProgress, progressDelayMs: 0 } : {}),
    });
    const extra = this.opened.isEmpty() ? null : await listOpened(this.opened, this.listed);
    this.demo = false;
    if (extra) result = mergeListings(result, extra);
    if (result.sessions.length === 0 && this.demoDir) {
      const demo = await listSessions([this.demoDir], { cache: this.listed });
      if (demo.sessions.length > 0) {
        result = { sessions: demo.sessions, skipped: result.skipped };
        this.demo = true;
      }
    }
    result = confineListing(result, this.confinedRoots());
    // An uploaded copy never takes the plain id from the file it copies (links keep their file).
    const rows = assignIds(result.sessions, (s) => this.opened.originOf(s.path) === 'uploaded');
    if (extra) {
      const configured = realRoots(this.roots);
      for (const k of rows) {
        const origin = outside(configured, k.path) ? this.opened.originOf(k.path) : null;
        if (origin) k.row.origin = origin;
      }
    }
    linkParents(rows);
    const listing: SessionListDto = {
      projects: groupProjects(rows.map((k) => k.row)),
      sessions: rows.map((k) => k.row),
      skipped: result.skipped,
    };
    this.rows.reset(listing, rows);
    return listing;
  }

  /** A listed session, its path confined again (to `real`, the roots resolved by the caller, if given). */
  async resolve(sessionId: string, real?: readonly string[]): Promise<Known> {
    if (!this.rows.listing) await this.list();
    const known = this.rows.get(sessionId);
    if (!known) throw new CanopyError('not_found', `no session with id ${sessionId}`);
    insideRealRoots(real ?? realRoots(this.confinedRoots()), known.path);
    return known;
  }

  async summaries(sessionIds: string[]): Promise<Record<string, SessionSummaryDto>> {
    const out: Record<string, SessionSummaryDto> = {};
    const real = realRoots(this.confinedRoots());
    for (const id of sessionIds) {
      if (!this.rows.has(id)) continue;
      try {
        const known = await this.resolve(id, real);
        const s = await summarizeSession(known.path, this.listed);
        known.row.summary = s;
        out[id] = s;
      } catch {
        // An unreadable file keeps its header row; opening it reports the error.
      }
    }
    return out;
  }

  /** Watch the roots; emits `sessions.changed`, and `session.appended` (what an open session read: a delta). */
  watch(): StopWatching {
    let chain: Promise<void> = Promise.resolve();
    return watchRoots(this.roots, (changedPaths) => {
      chain = chain.then(() => this.followChanges(changedPaths)).catch(() => undefined);
    });
  }

  /**
   * One watcher batch: a grown file is followed (an open session reads only the new bytes), its row updated; new files
   * added, gone ones removed, an open one truncated or replaced said once (a reset); a changed folder listed again.
   */
  async followChanges(changedPaths: string[]): Promise<void> {
    if (this.listingPromise) await this.listingPromise.catch(() => undefined);
    if (!this.rows.listing) return; // nothing listed yet: the first listing reads it all
    const files = changedPaths.filter((p) => p.endsWith('.jsonl'));
    if (this.demo || files.length < changedPaths.length) return this.relistAsChange(files);
    const fresh: string[] = [];
    let reason: 'added' | 'changed' | 'removed' = 'changed';
    for (const path of files) {
      const k = this.rows.atPath(path);
      if (!k) {
        fresh.push(path);
        continue;
      }
      const r = await this.store.follow(path).catch(() => null);
      const facts = r?.kind === 'removed' ? null : statPathOrNull(path);
      if (!facts || facts.size < k.row.sizeBytes) {
        // Gone, or truncated/replaced (its header may name another session): listed anew.
        this.rows.remove(k);
        if (facts) fresh.push(path);
        reason = 'removed';
        continue;
      }
      const modifiedAt = new Date(facts.mtimeMs).toISOString();
      if (facts.size === k.row.sizeBytes && modifiedAt === k.row.modifiedAt) continue; // our own write, echoed
      k.row.sizeBytes = facts.size;
      k.row.modifiedAt = modifiedAt;
      // A summary shown stays right: the pass continues from where it ended (only the new bytes are read).
      if (k.row.summary) k.row.summary = await summarizeSession(path, this.listed).catch(() => null);
      this.rows.change(k.row);
      await publishAppended(this.bus, this.store, this.settings.live, k.row);
    }
    const added = fresh.length > 0 ? await this.insertRows(fresh) : [];
    if (added.length > 0) reason = 'added';
    this.publish(reason);
    for (const row of added)
      if (await this.store.ifOpen(row.path)) await publishAppended(this.bus, this.store, this.settings.live, row);
  }

  /** Lists again and publishes the difference (rows of unchanged files keep their summaries). */
  private async relistAsChange(files: readonly string[]): Promise<void> {
    for (const path of files) await this.store.follow(path).catch(() => null);
    const before = this.rows.listing?.sessions ?? [];
    const change = diffListings(before, await this.list(true));
    for (const row of change.changed) await publishAppended(this.bus, this.store, this.settings.live, row);
    for (const listener of this.rowListeners) listener(change);
    this.bus?.emit('sessions.changed', { reason: 'changed', change });
  }
}
