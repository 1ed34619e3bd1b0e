/**
 * The app's whole-store report (Usage and Storage views): one background pass over the catalog's
 * listing (read through its public `list`), family by family, reporting progress on the bus; and
 * slim copies of listed sessions. The pass yields to the event loop every few tens of ms (scanLines)
 * and waits while a session opens (the open gate); a newer request restarts a stale report.
 */
import { basename } from 'node:path';
import { isInside } from '../storage/cache-dir';
import { canopyDataDir } from '../storage/data-dir';
import { StorageAccumulator } from './rules/storage-split';
import { UsageAccumulator } from './rules/usage';
import { type SessionFacts } from './rules/store-families';
import { statPathSync } from '../storage/stat';
import type { SessionListDto, SessionRowDto, SessionsChangeDto } from '../shared/dto';
import { CanopyError } from '../shared/errors';
import type {
  ArchivePreviewDto,
  ArchiveResultDto,
  SlimPreviewDto,
  SlimRequestDto,
  SlimResultDto,
  StorageRowDto,
  StoreReportDto,
  UsageRowDto,
} from '../shared/store-dto';
import type { EventBus } from '../repo/event-bus';
import type { OpenGate } from '../threads/open-gate';
import { ArchiveError, archiveFamilies, defaultArchiveDir, resumeArchive, type ArchivePlan } from './archive';
import { previewSlim, slimSession } from './slim';
import { familyGroups, walkSessions } from './store-walk';

export interface StoreServiceDeps {
  /** The catalog's listing. */
  list: () => Promise<SessionListDto>;
  /** Why a session may not get files written next to it (null: it may). */
  readOnlyReason: (sessionId: string) => string | null;
  /** Lists a file Canopy wrote; its row. */
  addWritten: (path: string) => Promise<SessionRowDto | null>;
  /** The session roots (archive moves families out of these only) and the archive folder (outside them). */
  roots?: readonly string[];
  archiveDir?: string;
  /** Folders opened at start: the archive folder lies outside them too. */
  openedFolders?: readonly string[];
  /** Environment for the data folder (tests); default process.env. */
  env?: Record<string, string | undefined>;
  /** Lists again after files left the roots. */
  relist?: () => Promise<unknown>;
  bus?: EventBus;
  /** The pass gives way (mid-file) while a session opens. */
  gate?: OpenGate;
}

const empty = (): StoreReportDto => ({
  state: 'idle',
  done: 0,
  total: 0,
  usage: [],
  usageProblems: [],
  storage: [],
  unpricedModels: [],
  computedAt: null,
});

export class StoreService {
  private report: StoreReportDto = empty();
  private running: Promise<void> | null = null;
  /** Rows changed since the report was made: the next ask makes it again. */
  private stale = false;

  constructor(private readonly deps: StoreServiceDeps) {}

  /** The report as far as it got; starts it when none ran yet (or `refresh`). */
  async get(refresh = false): Promise<StoreReportDto> {
    if (!this.running && (refresh || this.stale || this.report.state === 'idle' || this.report.state === 'failed')) {
      this.stale = false;
      this.running = this.run().finally(() => (this.running = null));
    }
    return this.report;
  }

  /** Rows the catalog added, changed or removed: a report made (or being made) is stale, made again when next asked. */
  rowsChanged(change: SessionsChangeDto): void {
    if (change.added.length + change.changed.length + change.removed.length > 0 && this.report.state !== 'idle')
      this.stale = true;
  }

  private emit(): void {
    const { state, done, total } = this.report;
    this.deps.bus?.emit('store.progress', { state, done, total });
  }

  private async run(): Promise<void> {
    const previous = this.report;
    this.report = { ...previous, state: 'running', done: 0, total: 0 };
    this.emit();
    try {
      const listing = await this.deps.list();
      const rows = listing.sessions.filter((r) => r.origin !== 'uploaded');
      const byPath = new Map(rows.map((r) => [r.path, r]));
      const cwdOf = new Map(rows.map((r) => [r.sessionId, r.cwd]));
      const idOf = (s: SessionFacts): string => byPath.get(s.path)?.sessionId ?? s.header.id;
      const usage = new UsageAccumulator({ by: ['day', 'provider', 'model', 'session'], sessionKey: idOf });
      const storage = new StorageAccumulator({ nowMs: Date.now(), top: rows.length });
      const storageRows: StorageRowDto[] = [];
      this.report.total = rows.reduce((n, r) => n + r.sizeBytes, 0);
      let lastEmit = 0;
      await walkSessions(
        rows.map((r) => ({ ...r, parentSessionPath: r.parentSessionPath ?? undefined })),
        (members, infos, parentOf) => {
          usage.addFamily(members);
          const familyId = infos[0]!.sessionId;
          storage.addFamily(members, parentOf).forEach((s, i) => {
            storageRows.push({
              sessionId: infos[i]!.sessionId,
              project: s.cwd,
              familyId,
              modifiedAt: new Date(s.mtimeMs).toISOString(),
              ...s.split,
            });
          });
        },
        {
          ...(this.deps.gate ? { pause: this.deps.gate.pause } : {}),
          onProgress: (p) => {
            this.report.done = p.bytesDone;
            if (performance.now() - lastEmit > 150) {
              lastEmit = performance.now();
              this.emit();
            }
          },
        },
      );
      const u = usage.report();
      const familyOf = new Map(storageRows.map((r) => [r.sessionId, r.familyId]));
      this.report = {
        state: 'done',
        done: this.report.total,
        total: this.report.total,
        usage: u.groups.map((g): UsageRowDto => {
          const sessionId = g.keys.session ?? '';
          return {
            day: g.keys.day ?? '',
            provider: g.keys.provider ?? '',
            model: g.keys.model ?? '',
            project: cwdOf.get(sessionId) ?? '',
            sessionId,
            familyId: familyOf.get(sessionId) ?? sessionId,
            cost: g.cost,
            messages: g.messages,
            input: g.input,
            output: g.output,
            cacheRead: g.cacheRead,
            cacheWrite: g.cacheWrite,
            cacheWrite1h: g.cacheWrite1h,
            reasoning: g.reasoning,
            billedCost: g.billedCost,
            unpricedMessages: g.unpricedMessages,
            activeCost: g.active.cost,
            otherSessionsCost: g.otherSessions.cost,
            abandonedCost: g.abandoned.cost,
            duplicateCost: g.duplicates.cost,
            duplicateMessages: g.duplicates.messages,
          };
        }),
        usageProblems: u.problems.map((p) => ({
          sessionId: byPath.get(p.path)?.sessionId ?? '',
          line: p.line,
          entryId: p.entryId,
          message: p.message,
        })),
        storage: storageRows.sort((a, b) => b.total - a.total),
        unpricedModels: u.unpricedModels,
        computedAt: new Date().toISOString(),
      };
    } catch (err) {
      this.report = { ...previous, state: 'failed', error: (err as Error).message };
    }
    this.emit();
  }

  private async writable(sessionId: string): Promise<SessionRowDto> {
    const listing = await this.deps.list();
    const row = listing.sessions.find((r) => r.sessionId === sessionId);
    if (!row) throw new CanopyError('not_found', `no listed session ${sessionId}`);
    const why = this.deps.readOnlyReason(sessionId);
    if (why) throw new CanopyError('forbidden', why);
    return row;
  }

  async slimPreview(req: SlimRequestDto): Promise<SlimPreviewDto> {
    const row = await this.writable(req.sessionId);
    const r = await previewSlim(row.path, options(req));
    return {
      bytesBefore: r.bytesBefore,
      bytesAfter: r.bytes,
      imagesRemoved: r.imagesRemoved,
      outputsCut: r.outputsCut,
    };
  }

  async slim(req: SlimRequestDto): Promise<SlimResultDto> {
    const row = await this.writable(req.sessionId);
    let r;
    try {
      r = await slimSession(row.path, options(req));
    } catch (err) {
      throw new CanopyError('io', (err as Error).message);
    }
    const added = await this.deps.addWritten(r.path);
    return {
      sessionId: added?.sessionId ?? null,
      fileName: basename(r.path),
      bytesBefore: r.bytesBefore,
      bytesAfter: r.bytesAfter,
      imagesRemoved: r.imagesRemoved,
      outputsCut: r.outputsCut,
    };
  }

  private archiveRoots(): string[] {
    const roots = this.deps.roots ?? [];
    if (roots.length === 0) throw new CanopyError('forbidden', 'archiving needs session roots');
    return [...roots];
  }

  /** Canopy's data folder (the archive's journal and lock, and its default destination). */
  private dataDir(): string {
    try {
      return canopyDataDir(this.archiveRoots(), this.deps.env);
    } catch (err) {
      throw new CanopyError('io', `Canopy's data folder is unusable: ${(err as Error).message}`);
    }
  }

  private archiveDir(): string {
    return this.deps.archiveDir ?? defaultArchiveDir(this.dataDir());
  }

  /** Finishes or rolls back an archive or restore a crash cut (the app calls it at start). */
  async resumeArchive(): Promise<void> {
    if ((this.deps.roots ?? []).length === 0) return;
    await resumeArchive(this.dataDir());
  }

  /** Stale families of the sessions under the roots (opened and demo files never move), with their rows. */
  private async archivePlan(staleDays: number): Promise<{ plan: ArchivePlan; preview: ArchivePreviewDto }> {
    const roots = this.archiveRoots();
    const listing = await this.deps.list();
    const rows = listing.sessions.filter((r) => !r.origin && roots.some((root) => isInside(r.path, root)));
    if (rows.length > 0 && this.deps.readOnlyReason(rows[0]!.sessionId)?.startsWith('demo')) {
      throw new CanopyError('forbidden', 'demo sessions are read-only');
    }
    const staleBefore = Date.now() - staleDays * 86_400_000;
    const families: ArchivePlan['families'] = [];
    const preview: ArchivePreviewDto = { staleDays, families: [], bytes: 0, archiveDir: this.archiveDir() };
    // Sizes and write times as they are now (the listing may be older); nothing is read.
    const current = rows.flatMap((r) => {
      try {
        const st = statPathSync(r.path);
        return [
          {
            ...r,
            sizeBytes: st.size,
            modifiedAt: new Date(st.mtimeMs).toISOString(),
            parentSessionPath: r.parentSessionPath ?? undefined,
          },
        ];
      } catch {
        return [];
      }
    });
    const groups = familyGroups(current);
    for (const infos of groups) {
      // Stale only when every member is (the latest write decides).
      const lastWriteMs = Math.max(...infos.map((r) => Date.parse(r.modifiedAt)));
      if (!(lastWriteMs < staleBefore)) continue;
      const bytes = infos.reduce((n, r) => n + r.sizeBytes, 0);
      const lastWrite = new Date(lastWriteMs).toISOString();
      families.push({
        family: infos[0]!.sessionId,
        lastWrite,
        bytes,
        sessions: infos.map((r) => ({ id: r.sessionId, path: r.path, bytes: r.sizeBytes })),
      });
      preview.families.push({
        familyId: infos[0]!.sessionId,
        sessionIds: infos.map((r) => r.sessionId),
        bytes,
        lastWrite,
      });
      preview.bytes += bytes;
    }
    return { plan: { staleDays, families, bytes: preview.bytes }, preview };
  }

  async archivePreview(staleDays: number): Promise<ArchivePreviewDto> {
    return (await this.archivePlan(staleDays)).preview;
  }

  async archive(staleDays: number, familyIds: readonly string[]): Promise<ArchiveResultDto> {
    const { plan } = await this.archivePlan(staleDays);
    const wanted = new Set(familyIds);
    const chosen = plan.families.filter((f) => wanted.has(f.family));
    let out;
    try {
      out = await archiveFamilies({
        families: chosen,
        staleDays,
        archiveDir: this.archiveDir(),
        roots: [...this.archiveRoots(), ...(this.deps.openedFolders ?? [])],
        dataDir: this.dataDir(),
      });
    } catch (err) {
      if (!(err instanceof ArchiveError)) throw err;
      throw new CanopyError(err.code === 'refused' ? 'forbidden' : 'io', err.message);
    }
    await this.deps.relist?.();
    this.deps.bus?.emit('sessions.changed', { reason: 'removed' });
    const done = out.filter((o) => o.moved);
    return {
      archived: done.length,
      bytes: done.reduce((n, o) => n + o.bytes, 0),
      kept: out.length - done.length + (familyIds.length - chosen.length),
      folders: done.map((o) => o.folder),
    };
  }
}

function options(req: SlimRequestDto): { dropImages: boolean; maxOutputBytes?: number } {
  return {
    dropImages: req.dropImages,
    ...(req.maxOutputBytes !== undefined ? { maxOutputBytes: req.maxOutputBytes } : {}),
  };
}
