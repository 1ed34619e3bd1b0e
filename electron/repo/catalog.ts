/**
 * The app's view of the session roots: sessions by id (never by path for the renderer), listing,
 * background summaries, opening a session as a graph, one entry's details, and watching for changes.
 * Every path it opens came from listing the configured roots and is re-checked against them.
 */
import { computeLabels, detectProfile, readSession, type Entry, type ParsedSession, type Profile } from '../core';
import { previewEntry, type EntryPreview } from '../core/entry-preview';
import type { EventBus } from '../ipc/events';
import type { EntryDetailDto, ProjectDto, SessionListDto, SessionRowDto, SessionSummaryDto } from '../shared/dto';
import type { EntryNodesDto, SessionGraphWireDto } from '../shared/entry-nodes';
import { CanopyError } from '../shared/errors';
import { insideRealRoots, realRoots } from './confine';
import { ContextService, type LoadedSession } from './context-service';
import { indexNodes, packedNodes } from './graph-nodes';
import { followFile, withSession, type OpenOptions } from './open';
import { entryPreviews, previewsById } from './previews';
import { OpenTasks, PROGRESS_DELAY_MS, PROGRESS_GAP_MS, type OpenTask } from './open-tasks';
import { delayedProgress } from './progress';
import { listSessions, summarizeSession, type SessionInfo, type SessionListing } from './sessions';
import { watchRoots, type StopWatching } from '../storage/watch';

export interface CatalogOptions {
  roots: string[];
  bus?: EventBus;
  /** Shown when the roots hold no session at all. */
  demoDir?: string;
  /** Opens and listings report progress once they have run this long (default 200 ms). */
  progressDelayMs?: number;
  /**
   * session.open answers from the index alone (`pending`, no body read) for files larger than this
   * (default 4 MiB); smaller files get their previews in the same answer.
   */
  lazyAboveBytes?: number;
}

const LAZY_ABOVE_BYTES = 4 * 1024 * 1024;

interface Known {
  row: SessionRowDto;
  path: string;
}

export class SessionCatalog {
  private readonly roots: string[];
  private readonly bus: EventBus | undefined;
  private readonly demoDir: string | undefined;
  private demo = false;
  private byId = new Map<string, Known>();
  private listing: SessionListDto | null = null;
  private listingPromise: Promise<SessionListDto> | null = null;
  /** session.context / forkPreview / fork / lineage. */
  readonly context = new ContextService(this);
  /** session.open calls running (cancellable, with progress events). */
  private readonly opens: OpenTasks;
  private readonly progressDelayMs: number;
  private readonly lazyAboveBytes: number;

  constructor(options: CatalogOptions) {
    this.roots = options.roots;
    this.bus = options.bus;
    this.demoDir = options.demoDir;
    this.progressDelayMs = options.progressDelayMs ?? PROGRESS_DELAY_MS;
    this.lazyAboveBytes = options.lazyAboveBytes ?? LAZY_ABOVE_BYTES;
    const bus = this.bus;
    this.opens = new OpenTasks(bus && ((payload) => bus.emit('session.progress', payload)), this.progressDelayMs);
  }

  rootsForDisplay(): string[] {
    return this.demo && this.demoDir ? [this.demoDir] : [...this.roots];
  }

  isDemo(): boolean {
    return this.demo;
  }

  /** The roots paths are confined to (the demo folder when showing demos). */
  private activeRoots(): string[] {
    return this.demo && this.demoDir ? [this.demoDir] : this.roots;
  }

  async list(refresh = false): Promise<SessionListDto> {
    if (this.listing && !refresh) return this.listing;
    if (!this.listingPromise) {
      this.listingPromise = this.buildListing().finally(() => (this.listingPromise = null));
    }
    return this.listingPromise;
  }

  private async buildListing(): Promise<SessionListDto> {
    const bus = this.bus;
    const onProgress = bus && delayedProgress((done, total) => bus.emit('sessions.progress', { done, total }), this.progressDelayMs, PROGRESS_GAP_MS);
    let result = await listSessions(this.roots, onProgress ? { onProgress, progressDelayMs: 0 } : {});
    this.demo = false;
    if (result.sessions.length === 0 && this.demoDir) {
      const demo = await listSessions([this.demoDir]);
      if (demo.sessions.length > 0) {
        result = { sessions: demo.sessions, skipped: result.skipped };
        this.demo = true;
      }
    }
    result = confineListing(result, this.activeRoots());
    const rows = assignIds(result.sessions);
    const idByPath = new Map(rows.map((k) => [k.path, k.row.sessionId]));
    // A parent that moved (synced from another machine, the relocated demo) still matches by file
    // name, which holds pi's time stamp and session id; only an unambiguous name counts.
    const idByName = new Map<string, string | null>();
    for (const k of rows) idByName.set(k.row.fileName, idByName.has(k.row.fileName) ? null : k.row.sessionId);
    for (const k of rows) {
      const parent = k.row.parentSessionPath;
      k.row.parentSessionId = parent ? (idByPath.get(parent) ?? idByName.get(baseName(parent)) ?? null) : null;
    }
    this.byId = new Map(rows.map((k) => [k.row.sessionId, k]));
    const listing: SessionListDto = {
      projects: groupProjects(rows.map((k) => k.row)),
      sessions: rows.map((k) => k.row),
      skipped: result.skipped,
    };
    this.listing = listing;
    return listing;
  }

  /** A listed session, its path confined again (to `real`, the roots resolved by the caller, if given). */
  private async known(sessionId: string, real?: readonly string[]): Promise<Known> {
    if (!this.listing) await this.list();
    const known = this.byId.get(sessionId);
    if (!known) throw new CanopyError('not_found', `no session with id ${sessionId}`);
    insideRealRoots(real ?? realRoots(this.activeRoots()), known.path);
    return known;
  }

  async summaries(sessionIds: string[]): Promise<Record<string, SessionSummaryDto>> {
    const out: Record<string, SessionSummaryDto> = {};
    const real = realRoots(this.activeRoots());
    for (const id of sessionIds) {
      if (!this.byId.has(id)) continue;
      try {
        const known = await this.known(id, real);
        const s = await summarizeSession(known.path);
        known.row.summary = s;
        out[id] = s;
      } catch {
        // An unreadable file keeps its header row; opening it reports the error.
      }
    }
    return out;
  }

  /** A listed session, confined and parsed (for the context service). */
  load(sessionId: string): Promise<LoadedSession> {
    return this.withLoaded(sessionId, (loaded) => loaded);
  }

  /**
   * `fn` on a listed session, confined and parsed (a file pi cannot read throws its error); a body
   * that no longer matches the index re-indexes the file and runs `fn` once more (withSession).
   */
  async withLoaded<T>(sessionId: string, fn: (loaded: LoadedSession) => T | Promise<T>): Promise<T> {
    return this.withKnown(await this.known(sessionId), fn);
  }

  private withKnown<T>(known: Known, fn: (loaded: LoadedSession) => T | Promise<T>, opts: OpenOptions = {}): Promise<T> {
    return withSession(known.path, (session) => {
      if (session.fatal) throw new CanopyError(session.fatal.code, session.fatal.message);
      return fn({ row: known.row, path: known.path, session });
    }, opts);
  }

  /** The graph of a session, its nodes packed for the wire (entry-nodes.ts). */
  async open(sessionId: string, profile?: Profile, leafId?: string | null): Promise<SessionGraphWireDto> {
    const known = await this.known(sessionId);
    return this.opens.run(sessionId, (task) => {
      const index = task.progress('index');
      return this.withKnown(known, (loaded) => this.graph(sessionId, loaded, task, profile, leafId), {
        signal: task.signal,
        ...(index ? { onProgress: index, progressDelayMs: 0 } : {}),
      });
    });
  }

  /** Previews of some entries of a session (session.previews). */
  async previews(sessionId: string, entryIds: string[]): Promise<Record<string, EntryPreview>> {
    return this.withLoaded(sessionId, ({ session }) => previewsById(session, entryIds));
  }

  /** Every node with its preview and body flags: one pass over the bodies (session.flags; cancellable). */
  async flags(sessionId: string): Promise<{ entries: EntryNodesDto }> {
    const known = await this.known(sessionId);
    return this.opens.run(sessionId, (task) =>
      this.withKnown(known, async ({ path, session }) => ({ entries: packedNodes(session.entries, await this.fullPreviews(path, session, task)) }), {
        signal: task.signal,
      }),
    );
  }

  /** Previews of every entry: one sequential pass over the bodies per session, then only appended entries. */
  private async fullPreviews(path: string, session: ParsedSession, task: OpenTask): Promise<EntryPreview[]> {
    const onProgress = task.progress('previews');
    const previews = await entryPreviews(path, session, { signal: task.signal, ...(onProgress ? { onProgress } : {}) });
    return session.entries.map((e, i) => previews[i] ?? previewEntry(e));
  }

  /** Stops the opens of `sessionId` still running (session.cancelOpen). */
  cancelOpen(sessionId: string): boolean {
    return this.opens.cancel(sessionId);
  }

  private async graph(
    sessionId: string, { row, path, session }: LoadedSession, task: OpenTask, profile?: Profile, leafId?: string | null,
  ): Promise<SessionGraphWireDto> {
    // A big file's first frame comes from the index; its bodies are read when asked for.
    const lazy = row.sizeBytes > this.lazyAboveBytes;
    const entries = lazy ? indexNodes(session.entries) : packedNodes(session.entries, await this.fullPreviews(path, session, task));
    const detected = detectProfile(session);
    const reading = readSession(session, { profile: profile ?? detected, ...(leafId !== undefined ? { leafId } : {}) });
    return {
      sessionId,
      cwd: row.cwd,
      path,
      header: { ...(session.header ?? {}) },
      profile: reading.profile,
      detectedProfile: detected,
      entries,
      leafId: reading.leafId,
      pathIds: reading.pathIds,
      contextEntryIds: reading.contextEntryIds,
      labels: reading.labels,
      sessionName: reading.sessionName ?? null,
      issues: reading.issues.map((i) => ({ line: i.line, kind: i.kind, message: i.message })),
      sizeBytes: row.sizeBytes,
      ...(lazy ? { pending: true as const } : {}),
    };
  }

  async entry(sessionId: string, entryId: string): Promise<EntryDetailDto> {
    return this.withLoaded(sessionId, ({ session }) => {
      let found: Entry | undefined;
      const children: string[] = [];
      for (const e of session.entries) {
        if (e.id === entryId) found = e;
        if (e.parentId === entryId) children.push(e.id);
      }
      if (!found) throw new CanopyError('not_found', `no entry ${entryId} in session ${sessionId}`);
      // The labels readSession reports, without building a context (that reads many bodies).
      const label = computeLabels(session, detectProfile(session)).labels.get(entryId);
      return { sessionId, entryId, line: found.line, raw: found.raw, label: label ?? null, children };
    });
  }

  /**
   * Watch the roots; emits `sessions.changed`, and `session.appended` for known sessions once an
   * open one has read the appended lines (only the new bytes, see open.ts followFile).
   */
  watch(): StopWatching {
    let chain: Promise<void> = Promise.resolve();
    return watchRoots(this.roots, (changedPaths) => {
      chain = chain.then(() => this.followChanges(changedPaths)).catch(() => undefined);
    });
  }

  /** One watcher batch: follow known files, note new and removed ones. */
  async followChanges(changedPaths: string[]): Promise<void> {
    const byPath = new Map<string, Known>();
    for (const k of this.byId.values()) byPath.set(k.path, k);
    let reason: 'added' | 'changed' | 'removed' = 'changed';
    for (const path of changedPaths) {
      const k = byPath.get(path);
      if (!k) {
        reason = 'added';
        continue;
      }
      const r = await followFile(path).catch(() => null);
      if (r?.kind === 'removed') {
        if (reason !== 'added') reason = 'removed';
        continue;
      }
      if (r) k.row.sizeBytes = r.sizeBytes;
      this.bus?.emit('session.appended', { sessionId: k.row.sessionId, sizeBytes: k.row.sizeBytes });
    }
    this.listing = null;
    this.bus?.emit('sessions.changed', { reason });
  }
}

/**
 * Sessions whose file resolves outside every root (a symlink pointing elsewhere) are not shown:
 * they move to `skipped` before anything read from them reaches the renderer.
 */
function confineListing(listing: SessionListing, roots: readonly string[]): SessionListing {
  const skipped = [...listing.skipped];
  const real = realRoots(roots);
  const inside = listing.sessions.filter((s) => {
    try {
      insideRealRoots(real, s.path);
      return true;
    } catch (err) {
      const e = err instanceof CanopyError ? err : new CanopyError('io', String(err));
      skipped.push({ path: s.path, error: { code: e.code, message: e.message } });
      return false;
    }
  });
  return { sessions: inside, skipped };
}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

/** Session ids are the header ids; a duplicate (a copied file) gets a stable `~n` suffix by path order. */
function assignIds(sessions: SessionInfo[]): Known[] {
  const sorted = [...sessions].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const seen = new Map<string, number>();
  return sorted.map((s) => {
    const n = seen.get(s.id) ?? 0;
    seen.set(s.id, n + 1);
    const sessionId = n === 0 ? s.id : `${s.id}~${n}`;
    const fileName = baseName(s.path);
    const row: SessionRowDto = {
      sessionId,
      cwd: s.cwd,
      createdAt: s.createdAt,
      modifiedAt: s.modifiedAt,
      sizeBytes: s.sizeBytes,
      fileName,
      path: s.path,
      parentSessionId: null,
      parentSessionPath: s.parentSessionPath ?? null,
      summary: null,
    };
    return { row, path: s.path };
  });
}

function groupProjects(rows: SessionRowDto[]): ProjectDto[] {
  const byCwd = new Map<string, ProjectDto>();
  for (const r of rows) {
    const p = byCwd.get(r.cwd);
    if (!p) byCwd.set(r.cwd, { cwd: r.cwd, sessionCount: 1, lastActivity: r.modifiedAt });
    else {
      p.sessionCount++;
      if (r.modifiedAt > p.lastActivity) p.lastActivity = r.modifiedAt;
    }
  }
  return [...byCwd.values()].sort((a, b) => (a.lastActivity < b.lastActivity ? 1 : -1));
}
