/**
 * The keep wing's facade: names, tags, pins and notes for any session, and trashing (with
 * restore), all recorded in Canopy's data folder by session id. No session file is ever written:
 * a trashing only moves whole files to the OS trash.
 */
import { randomUUID } from 'node:crypto';
import { canopyDataDir } from '../storage/data-dir';
import { CanopyError } from '../shared/errors';
import type { EventBus } from '../repo/event-bus';
import type { SessionListDto } from '../shared/dto';
import type { KeepPatchDto, KeepRecordDto, TrashPreviewDto, TrashRecordDto } from '../shared/keep-dto';
import { applyPatch, familyOf } from './rules';
import { KeepStore } from './keep-store';
import { moveToTrash, whereTrashed } from './os-trash';
import { restoreTrashed } from '../storage/freedesktop-trash';

export interface AppKeepOptions {
  roots: readonly string[];
  bus?: EventBus;
  list: () => Promise<SessionListDto>;
  /** Lists again after files moved (and tells the renderer). */
  relist: () => Promise<unknown>;
  /** Why a session's file may not be moved (demo, an uploaded copy); null: it may. */
  readOnlyReason: (sessionId: string) => string | null;
  env?: Record<string, string | undefined>;
  /** Tests: the OS trash stand-in (default: the `trash` package). */
  moveToTrash?: (paths: readonly string[]) => Promise<void>;
}

export class AppKeep {
  private store: KeepStore | null = null;

  constructor(private readonly opts: AppKeepOptions) {}

  private files(): KeepStore {
    this.store ??= new KeepStore(canopyDataDir(this.opts.roots, this.opts.env));
    return this.store;
  }

  async records(): Promise<Record<string, KeepRecordDto>> {
    return { ...(await this.files().records.read()).records };
  }

  /** Applies a change to a session's record; `keep.changed` carries the result. */
  async set(sessionId: string, patch: KeepPatchDto): Promise<KeepRecordDto | null> {
    const next = await this.files().records.update((file) => {
      const record = applyPatch(file.records[sessionId], patch, new Date().toISOString());
      if (record) file.records[sessionId] = record;
      else delete file.records[sessionId];
      return record;
    });
    this.opts.bus?.emit('keep.changed', { sessionId, record: next });
    return next;
  }

  async trashPreview(sessionId: string, withForks: boolean): Promise<TrashPreviewDto> {
    const listing = await this.opts.list();
    const family = familyOf(listing.sessions, sessionId, withForks);
    if (family.length === 0) throw new CanopyError('not_found', `no session ${sessionId}`);
    const refused = family.map((r) => this.opts.readOnlyReason(r.sessionId)).find((r) => r !== null) ?? null;
    return {
      sessionId,
      files: family.map((r) => ({
        sessionId: r.sessionId,
        path: r.path,
        sizeBytes: r.sizeBytes,
        fork: r.sessionId !== sessionId,
      })),
      refused,
    };
  }

  /** Moves the session (and its forks, when asked) to the OS trash and records where each went. */
  async trash(sessionId: string, withForks: boolean): Promise<TrashRecordDto> {
    const preview = await this.trashPreview(sessionId, withForks);
    if (preview.refused) throw new CanopyError('forbidden', preview.refused);
    await (this.opts.moveToTrash ?? moveToTrash)(preview.files.map((f) => f.path));
    const env = this.opts.env ?? process.env;
    const record: TrashRecordDto = {
      id: randomUUID(),
      trashedAt: new Date().toISOString(),
      files: await Promise.all(
        preview.files.map(async (f) => ({
          sessionId: f.sessionId,
          path: f.path,
          trashedAs: await whereTrashed(f.path, env),
        })),
      ),
    };
    await this.files().trash.update((file) => file.trashed.unshift(record));
    await this.relisted();
    return record;
  }

  /** What Canopy trashed, newest first. */
  async trashed(): Promise<TrashRecordDto[]> {
    return [...(await this.files().trash.read()).trashed];
  }

  /** Puts a trashing's files back where they were (only those the trash holds where Canopy saw them go). */
  async restore(id: string): Promise<TrashRecordDto> {
    const record = (await this.files().trash.read()).trashed.find((r) => r.id === id);
    if (!record) throw new CanopyError('not_found', `nothing trashed with id ${id}`);
    if (record.restoredAt) throw new CanopyError('invalid_argument', 'already restored');
    const lost = record.files.filter((f) => !f.trashedAs);
    if (lost.length > 0)
      throw new CanopyError(
        'io',
        `Canopy cannot reach this trash: restore ${lost.map((f) => f.path).join(', ')} from the system's trash`,
      );
    for (const f of record.files) {
      try {
        await restoreTrashed(f.trashedAs!, f.path);
      } catch (err) {
        throw new CanopyError('io', err instanceof Error ? err.message : String(err));
      }
    }
    const done = await this.files().trash.update((file) => {
      const r = file.trashed.find((x) => x.id === id)!;
      r.restoredAt = new Date().toISOString();
      return { ...r };
    });
    await this.relisted();
    return done;
  }

  private async relisted(): Promise<void> {
    await this.opts.relist();
    this.opts.bus?.emit('sessions.changed', { reason: 'removed' });
  }
}
