/**
 * The catalog's "what reaches the model", fork preview / fork, and lineage channels. Sessions are
 * named by catalog id; the catalog confines and parses them. Only `fork` writes, and only a new
 * file next to the source (repo/fork.ts); the preview runs the same plan without writing.
 */
import { dirname, resolve } from 'node:path';
import { buildContextView, previewFork, forkPoint, detectProfile, readSessionDetailed, type ForkErrorKind, type ForkRequest, type ParsedSession, type Profile } from '../core';
import type { ContextViewDto, ForkPreviewDto, ForkRequestDto, ForkResultDto, LineageDto, LineageLinkDto } from '../shared/context-dto';
import type { SessionListDto, SessionRowDto } from '../shared/dto';
import { packEntryStates } from '../shared/entry-states';
import { CanopyError, type ErrorCode } from '../shared/errors';
import { resumeCommand } from '../shared/resume-command';
import { caEntryId, forkSession } from './fork';
import { ForkReservations } from './fork-reservations';
import { entryUsages } from './previews';

export interface LoadedSession {
  row: SessionRowDto;
  /** Confined to the roots by the catalog. */
  path: string;
  session: ParsedSession;
}

/** What the service needs from the catalog. */
export interface SessionSource {
  /** A listed session, parsed; throws CanopyError (not_found, outside_roots, invalid_session …). */
  load(sessionId: string): Promise<LoadedSession>;
  /**
   * `fn` on a listed session (as `load`); a body that no longer matches the index (the file was
   * rewritten, or a line only looked like pi's) re-indexes the file and runs `fn` once more.
   */
  withLoaded<T>(sessionId: string, fn: (loaded: LoadedSession) => T | Promise<T>): Promise<T>;
  list(refresh?: boolean): Promise<SessionListDto>;
  /** Why a session is never written next to (demo sessions, uploaded copies); null when it can be forked. */
  readOnlyReason(sessionId: string): string | null;
  /** A new file Canopy wrote (before the listing is refreshed). */
  noteWritten?(path: string): void;
}

function coreRequest(request: ForkRequestDto, profile: Profile): ForkRequest {
  if (request.kind === 'fork') return { kind: 'fork', profile, entryId: request.entryId, position: request.position };
  return request.leafId === undefined ? { kind: 'clone', profile } : { kind: 'clone', profile, leafId: request.leafId };
}

/** pi's refusal as an API error: a target that cannot be forked is `invalid_fork_target`. */
function refusalCode(kind: ForkErrorKind): ErrorCode {
  if (kind === 'nothing_to_clone' || kind === 'invalid_session') return kind;
  return 'invalid_fork_target';
}


export class ContextService {
  /** The preview's new session id and time, used again by the fork of the same request. */
  private readonly reservations = new ForkReservations();

  constructor(private readonly source: SessionSource) {}

  view(sessionId: string, profile?: Profile, leafId?: string | null): Promise<ContextViewDto> {
    return this.source.withLoaded(sessionId, async ({ path, session }) => {
      const detected = detectProfile(session);
      const reading = readSessionDetailed(session, { profile: profile ?? detected, ...(leafId !== undefined ? { leafId } : {}) });
      // The ledgers need every entry's usage: one pass over the file (shared with the graph's previews).
      const usageOf = await entryUsages(path, session);
      const view = buildContextView(session, reading, { usageOf });
      const issues = reading.issues.map((i) => ({ line: i.line, kind: i.kind, message: i.message }));
      return { sessionId, detectedProfile: detected, ...view, entries: packEntryStates(view.entries), issues };
    });
  }

  forkPreview(sessionId: string, request: ForkRequestDto, profile?: Profile): Promise<ForkPreviewDto> {
    return this.source.withLoaded(sessionId, ({ path, session }) => this.previewForkOf(sessionId, path, session, request, profile));
  }

  private previewForkOf(sessionId: string, path: string, session: ParsedSession, request: ForkRequestDto, profile?: Profile): ForkPreviewDto {
    const readOnly = this.source.readOnlyReason(sessionId);
    if (readOnly) return { ok: false, error: { kind: 'read_only', message: readOnly } };
    const used = profile ?? detectProfile(session);
    // The same environment forkSession builds: resolved source path, the reserved id and time, pi's entry ids.
    const sourcePath = resolve(path);
    const taken = new Set(session.entries.map((e) => e.id));
    const reserved = this.reservations.reserve(sessionId, request, profile);
    const preview = previewFork(session, coreRequest(request, used), {
      sourcePath,
      newSessionId: reserved.sessionId,
      now: reserved.now,
      newEntryId: () => {
        const id = caEntryId(taken);
        taken.add(id);
        return id;
      },
    });
    if (!preview.ok) return preview;
    return { ...preview, directory: dirname(sourcePath) };
  }

  async fork(sessionId: string, request: ForkRequestDto, profile?: Profile): Promise<ForkResultDto> {
    const { path } = await this.source.load(sessionId);
    const readOnly = this.source.readOnlyReason(sessionId);
    if (readOnly) throw new CanopyError('forbidden', readOnly);
    const command = request.kind === 'fork' ? request : { kind: 'clone' as const, ...(request.leafId !== undefined ? { leafId: request.leafId } : {}) };
    const reserved = this.reservations.take(sessionId, request, profile);
    const outcome = await forkSession(path, command, {
      ...(profile ? { profile } : {}),
      newSessionId: () => reserved.sessionId,
      now: () => new Date(reserved.now),
    });
    if (!outcome.ok) throw new CanopyError(refusalCode(outcome.error.kind), outcome.error.message);
    this.source.noteWritten?.(outcome.path);
    const listing = await this.source.list(true);
    const row =
      listing.sessions.find((r) => resolve(r.path) === resolve(outcome.path)) ??
      listing.sessions.find((r) => r.sessionId === outcome.header.id);
    return {
      sessionId: row?.sessionId ?? outcome.header.id,
      path: outcome.path,
      command: resumeCommand(outcome.path),
      entryCount: outcome.entries.length,
      leafId: outcome.leafId,
    };
  }

  /** Parent (via header parentSession) and children, each with its fork point; reads only those files. */
  async lineage(sessionId: string): Promise<LineageDto> {
    const self = await this.source.load(sessionId);
    const listing = await this.source.list();
    const parentId = self.row.parentSessionId;
    let parent: LineageLinkDto | null = null;
    if (parentId) {
      const row = listing.sessions.find((r) => r.sessionId === parentId);
      const other = await this.tryLoad(parentId);
      if (row) parent = link(row, other ? forkPoint(self.session, other.session) : null);
    }
    const children: LineageLinkDto[] = [];
    for (const row of listing.sessions) {
      if (row.parentSessionId !== sessionId || row.sessionId === sessionId) continue;
      const child = await this.tryLoad(row.sessionId);
      children.push(link(row, child ? forkPoint(child.session, self.session) : null));
    }
    children.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
    return {
      sessionId,
      parent,
      missingParentPath: parentId ? null : self.row.parentSessionPath,
      children,
    };
  }

  /** A related session that cannot be read still shows up, without a fork point. */
  private async tryLoad(sessionId: string): Promise<LoadedSession | null> {
    try {
      return await this.source.load(sessionId);
    } catch {
      return null;
    }
  }
}

function link(row: SessionRowDto, forkPointEntryId: string | null): LineageLinkDto {
  return { sessionId: row.sessionId, fileName: row.fileName, createdAt: row.createdAt, forkPointEntryId };
}
