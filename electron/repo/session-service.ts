/**
 * The per-session channels: resolves a session id to its listed row (confined by the catalog) and
 * its open session in the store, runs opens as cancellable tasks with progress, checks read-only
 * sessions, and writes forks (a new file next to the source, its row added to the catalog). The
 * work on one session is the OpenSession's (open-session.ts): handlers read
 * `sessions.get(id).graph(args)`.
 */
import { forkPoint, type ParsedSession, type Profile } from '../core';
import type {
  ContextViewDto,
  ForkPreviewDto,
  ForkRequestDto,
  ForkResultDto,
  LineageDto,
  LineageLinkDto,
} from '../shared/context-dto';
import type { EntryDetailDto, EntryPreview, PayloadPageDto, SessionRowDto } from '../shared/dto';
import type { EntryNodesDto, SessionGraphWireDto } from '../shared/entry-nodes';
import { CanopyError, type ErrorCode } from '../shared/errors';
import { resumeCommand } from '../shared/resume-command';
import type { ForkErrorKind } from '../core';
import type { SessionCatalog } from './catalog';
import type { PayloadRequest } from './entry-payload';
import { writeFork } from './fork';
import { ForkReservations } from './fork-reservations';
import type { Known } from './listing-rows';
import type { OpenSession } from './open-session';
import type { StoreOpenOptions } from './session-store';
import { OpenTasks } from './session-tasks';
import type { OffloadTask, SessionOffload } from './session-offload';
import { LiveContexts, withLiveSeq } from './live-context';

/** Children of a session whose fork points are read (each reads the child's file); the rest are listed without one. */
export const LINEAGE_FORK_POINTS = 200;

/** A listed session, confined and parsed, with its owner in the store. */
export interface LoadedSession {
  row: SessionRowDto;
  path: string;
  session: ParsedSession;
  open: OpenSession;
}

/** pi's refusal as an API error: a target that cannot be forked is `invalid_fork_target`. */
function refusalCode(kind: ForkErrorKind): ErrorCode {
  if (kind === 'nothing_to_clone' || kind === 'invalid_session') return kind;
  return 'invalid_fork_target';
}

function link(row: SessionRowDto, forkPointEntryId: string | null): LineageLinkDto {
  return { sessionId: row.sessionId, fileName: row.fileName, createdAt: row.createdAt, forkPointEntryId };
}

export class SessionService {
  /** session.open / session.flags calls running (cancellable, with progress events). */
  private readonly opens: OpenTasks;
  /** The preview's new session id and time, used again by the fork of the same request. */
  private readonly reservations = new ForkReservations();

  /** `offload`: context views are built in a worker thread (serve, the app); without it, here. */
  constructor(
    readonly catalog: SessionCatalog,
    private readonly offload: SessionOffload | null = null,
  ) {
    const bus = catalog.settings.bus;
    this.opens = new OpenTasks(
      bus && ((payload) => bus.emit('session.progress', payload)),
      catalog.settings.progressDelayMs,
    );
    this.live =
      bus &&
      new LiveContexts({
        bus,
        openOf: async (id) => {
          const row = catalog.rowOf(id);
          return row ? catalog.store.ifOpen(row.path) : undefined;
        },
        build: (id) => this.context(id),
      });
  }

  /** Keeps the context views asked for current as their sessions change (live-context.ts). */
  readonly live: LiveContexts | undefined;

  /** The session listed as `sessionId` (resolved, confined and opened when a channel asks). */
  get(sessionId: string): SessionHandle {
    return new SessionHandle(this, sessionId);
  }

  /** Stops the opens of `sessionId` still running (session.cancelOpen). */
  cancelOpen(sessionId: string): boolean {
    return this.opens.cancel(sessionId);
  }

  /**
   * `fn` on a listed session, confined and parsed (a file pi cannot read throws its error); a body
   * that no longer matches the index re-indexes the file and runs `fn` once more (SessionStore.with).
   */
  async with<T>(
    sessionId: string,
    fn: (loaded: LoadedSession) => T | Promise<T>,
    opts: StoreOpenOptions = {},
    known?: Known,
  ): Promise<T> {
    const k = known ?? (await this.catalog.resolve(sessionId));
    return this.catalog.store.with(
      k.path,
      (session, open) => {
        if (session.fatal) throw new CanopyError(session.fatal.code, session.fatal.message);
        return fn({ row: k.row, path: k.path, session, open });
      },
      { ...this.catalog.settings.live, ...opts },
    );
  }

  /**
   * The graph (session.open): a task the user can cancel, reporting its progress. A big session's
   * graph (from its index alone) is built in the worker thread where there is one, while this
   * thread indexes the file for the calls that follow (entry, previews, fork).
   */
  async graph(sessionId: string, profile?: Profile, leafId?: string | null): Promise<SessionGraphWireDto> {
    const known = await this.catalog.resolve(sessionId);
    // The flags pass of the session the user left would only hold up this one.
    this.opens.cancelOthers(sessionId, 'flags');
    const lazy = known.row.sizeBytes > this.catalog.settings.lazyAboveBytes;
    return this.opens.run(sessionId, async (task) => {
      const index = task.progress('index');
      const offloaded = lazy && this.offload ? this.offloadGraph(known, task.signal, profile, leafId) : null;
      const here = this.with(
        sessionId,
        ({ row, session, open }) => (offloaded ? null : open.graph(session, row, task, { lazy, profile, leafId })),
        {
          signal: task.signal,
          // A file whose previews come with the graph is read once: its bodies are skimmed while indexed.
          skimBodies: !lazy,
          ...(index ? { onProgress: index, progressDelayMs: 0 } : {}),
        },
        known,
      );
      if (!offloaded) return (await here)!;
      // Both settle before the answer (a failed index here is the answer too).
      // No facts are noted here for the next live delta: reading them is the work the worker took
      // off this thread (~1 s on 300k entries), so the first delta after such an open sends them whole.
      const [graph] = await Promise.all([offloaded, here]);
      return graph;
    });
  }

  private async offloadGraph(
    known: { path: string; row: SessionRowDto },
    signal: AbortSignal,
    profile?: Profile,
    leafId?: string | null,
  ): Promise<SessionGraphWireDto> {
    // Not awaited: the worker starts while this thread may still be indexing (a session not open yet is at 0).
    const seq = this.catalog.store.readyAt(known.path)?.feed.seq ?? 0;
    const encoded = await this.offload!.graph({ ...this.taskFor(known.path, profile, leafId), row: known.row }, signal);
    // serve sends the bytes as they are; Electron's IPC parses them (register-electron.ts).
    return withLiveSeq(encoded, seq) as unknown as SessionGraphWireDto;
  }

  /** What a session worker's task names: the file, the profile and leaf asked, how a file being written is read. */
  private taskFor(path: string, profile?: Profile, leafId?: string | null): OffloadTask {
    const idle = this.catalog.settings.live.writerIdleMs;
    return {
      path,
      ...(profile ? { profile } : {}),
      ...(leafId !== undefined ? { leafId } : {}),
      ...(idle !== undefined ? { writerIdleMs: idle } : {}),
    };
  }

  /** Every node with its preview and body flags (session.flags; cancellable). */
  async flags(sessionId: string): Promise<{ entries: EntryNodesDto }> {
    const known = await this.catalog.resolve(sessionId);
    return this.opens.run(
      sessionId,
      (task) =>
        this.with(
          sessionId,
          async ({ session, open }) => ({ entries: await open.flags(session, task) }),
          {
            signal: task.signal,
          },
          known,
        ),
      'flags',
    );
  }

  forkPreview(sessionId: string, request: ForkRequestDto, profile?: Profile): Promise<ForkPreviewDto> {
    return this.with(sessionId, ({ session, open }): ForkPreviewDto => {
      const readOnly = this.catalog.readOnlyReason(sessionId);
      if (readOnly) return { ok: false, error: { kind: 'read_only', message: readOnly } };
      return open.forkPreview(session, request, this.reservations.reserve(sessionId, request, profile), profile);
    });
  }

  /** Plans on the open session (no second read of the source), writes the new file, and adds just its row. */
  async fork(sessionId: string, request: ForkRequestDto, profile?: Profile): Promise<ForkResultDto> {
    let written: { path: string; plan: Extract<ReturnType<OpenSession['forkPlan']>, { ok: true }> };
    try {
      const { path, plan } = await this.with(sessionId, ({ path, session, open }) => {
        const readOnly = this.catalog.readOnlyReason(sessionId);
        if (readOnly) throw new CanopyError('forbidden', readOnly);
        // The preview's name for this request (drawn now when there was no preview).
        const naming = this.reservations.reserve(sessionId, request, profile);
        return { path, plan: open.forkPlan(session, request, naming, profile) };
      });
      if (!plan.ok) throw new CanopyError(refusalCode(plan.error.kind), plan.error.message);
      written = { path: await writeFork(path, plan), plan };
    } finally {
      // A fork consumes its reservation, written or not: the next preview draws a new name.
      this.reservations.take(sessionId, request, profile);
    }
    const row = await this.catalog.addWritten(written.path);
    return {
      sessionId: row?.sessionId ?? written.plan.header.id,
      path: written.path,
      command: resumeCommand(written.path),
      entryCount: written.plan.entries.length,
      leafId: written.plan.leafId,
      row,
    };
  }

  /**
   * What reaches the model at a leaf (session.context). Offloaded, the answer is the worker's JSON
   * bytes (EncodedJson, typed as the view it spells): the transports send them as they are.
   */
  async context(sessionId: string, profile?: Profile, leafId?: string | null): Promise<ContextViewDto> {
    if (!this.offload) {
      return this.with(sessionId, ({ session, open }) => open.context(session, sessionId, profile, leafId));
    }
    const known = await this.catalog.resolve(sessionId);
    const open = this.catalog.store.readyAt(known.path);
    const seq = open?.feed.seq ?? 0;
    const view = withLiveSeq(
      await this.offload.context({ ...this.taskFor(known.path, profile, leafId), sessionId }),
      seq,
    ) as unknown as ContextViewDto;
    // The default view is what live context changes are deltas of (live-context.ts).
    if (open && profile === undefined && leafId === undefined) open.feed.contextAt(seq, view);
    return view;
  }

  /**
   * Parent (via header parentSession) and children, each with its fork point. The children come
   * from the catalog's index (built once per listing change); only LINEAGE_FORK_POINTS of them
   * are read for their fork points.
   */
  async lineage(sessionId: string): Promise<LineageDto> {
    const self = await this.with(sessionId, (l) => l);
    const parentId = self.row.parentSessionId;
    let parent: LineageLinkDto | null = null;
    if (parentId) {
      const other = await this.tryParse(parentId);
      const row = this.catalog.rowOf(parentId);
      if (row) parent = link(row, other ? forkPoint(self.session, other) : null);
    }
    const rows = [...this.catalog.childrenOf(sessionId)].sort((a, b) =>
      a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0,
    );
    const children: LineageLinkDto[] = [];
    for (const [i, row] of rows.entries()) {
      const child = i < LINEAGE_FORK_POINTS ? await this.tryParse(row.sessionId) : null;
      children.push(link(row, child ? forkPoint(child, self.session) : null));
    }
    return { sessionId, parent, missingParentPath: parentId ? null : self.row.parentSessionPath, children };
  }

  /** A related session that cannot be read still shows up, without a fork point. */
  private async tryParse(sessionId: string): Promise<ParsedSession | null> {
    try {
      return await this.with(sessionId, (l) => l.session);
    } catch {
      return null;
    }
  }
}

/** One listed session as the channels name it: each call resolves, confines and opens it. */
export class SessionHandle {
  constructor(
    private readonly service: SessionService,
    readonly sessionId: string,
  ) {}

  graph(args: { profile?: Profile; leafId?: string | null } = {}): Promise<SessionGraphWireDto> {
    return this.service.graph(this.sessionId, args.profile, args.leafId);
  }

  flags(): Promise<{ entries: EntryNodesDto }> {
    return this.service.flags(this.sessionId);
  }

  previews(entryIds: string[]): Promise<Record<string, EntryPreview>> {
    return this.service.with(this.sessionId, ({ session, open }) => open.previews(session, entryIds));
  }

  entry(entryId: string): Promise<EntryDetailDto> {
    return this.service.with(this.sessionId, ({ session, open }) => open.entry(session, this.sessionId, entryId));
  }

  payload(entryId: string, req: PayloadRequest): Promise<PayloadPageDto> {
    return this.service.with(this.sessionId, ({ session, open }) =>
      open.payload(session, this.sessionId, entryId, req),
    );
  }

  context(args: { profile?: Profile; leafId?: string | null } = {}): Promise<ContextViewDto> {
    return this.service.context(this.sessionId, args.profile, args.leafId);
  }

  forkPreview(request: ForkRequestDto, profile?: Profile): Promise<ForkPreviewDto> {
    return this.service.forkPreview(this.sessionId, request, profile);
  }

  fork(request: ForkRequestDto, profile?: Profile): Promise<ForkResultDto> {
    return this.service.fork(this.sessionId, request, profile);
  }

  lineage(): Promise<LineageDto> {
    return this.service.lineage(this.sessionId);
  }
}
