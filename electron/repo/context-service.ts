/**
 * The catalog's "what reaches the model", fork preview / fork, and lineage channels. Sessions are
 * named by catalog id; the catalog confines and parses them. Only `fork` writes, and only a new
 * file next to the source (repo/fork.ts); the preview runs the same plan without writing.
 */
import { dirname } from 'node:path';
import {
  buildContextView,
  detectProfile,
  forkPoint,
  previewFork,
  readSessionDetailed,
  type ForkErrorKind,
  type ForkPlan,
  type ParsedSession,
  type Profile,
} from '../core';
import type {
  ContextViewDto,
  ForkPreviewDto,
  ForkRequestDto,
  ForkResultDto,
  LineageDto,
  LineageLinkDto,
} from '../shared/context-dto';
import type { SessionListDto, SessionRowDto } from '../shared/dto';
import { packEntryStates } from '../shared/entry-states';
import { CanopyError, type ErrorCode } from '../shared/errors';
import { resumeCommand } from '../shared/resume-command';
import { forkEnv, planForkOf, writeFork } from './fork';
import { ForkReservations } from './fork-reservations';
import type { OpenSession } from './session-store';

export interface LoadedSession {
  row: SessionRowDto;
  /** Confined to the roots by the catalog. */
  path: string;
  session: ParsedSession;
  /** Its owner in the catalog's store (bodies, previews, nodes). */
  open: OpenSession;
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
  /** A new file Canopy wrote, added to the listing (its header read; no relisting); null if it cannot be listed. */
  addWritten(path: string): Promise<SessionRowDto | null>;
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
    return this.source.withLoaded(sessionId, async ({ session, open }) => {
      const detected = detectProfile(session);
      const reading = readSessionDetailed(session, {
        profile: profile ?? detected,
        ...(leafId !== undefined ? { leafId } : {}),
      });
      // The ledgers need every entry's usage: one pass over the file (shared with the graph's previews).
      const usageOf = await open.bodies.usageOf(session);
      const view = buildContextView(session, reading, { usageOf });
      const issues = reading.issues.map((i) => ({ line: i.line, kind: i.kind, message: i.message }));
      return { sessionId, detectedProfile: detected, ...view, entries: packEntryStates(view.entries), issues };
    });
  }

  forkPreview(sessionId: string, request: ForkRequestDto, profile?: Profile): Promise<ForkPreviewDto> {
    return this.source.withLoaded(sessionId, ({ path, session }): ForkPreviewDto => {
      const readOnly = this.source.readOnlyReason(sessionId);
      if (readOnly) return { ok: false, error: { kind: 'read_only', message: readOnly } };
      const used = profile ?? detectProfile(session);
      const reserved = this.reservations.reserve(sessionId, request, profile);
      const env = forkEnv(session, path, { newSessionId: () => reserved.sessionId, now: () => new Date(reserved.now) });
      const preview = previewFork(session, { ...request, profile: used }, env);
      if (!preview.ok) return preview;
      return { ...preview, directory: dirname(env.sourcePath) };
    });
  }

  /** Plans on the open session (no second read of the source), writes the new file, and lists just that file. */
  async fork(sessionId: string, request: ForkRequestDto, profile?: Profile): Promise<ForkResultDto> {
    let written: { path: string; plan: Extract<ForkPlan, { ok: true }> };
    try {
      const { path, plan } = await this.source.withLoaded(sessionId, ({ path, session }) => {
        const readOnly = this.source.readOnlyReason(sessionId);
        if (readOnly) throw new CanopyError('forbidden', readOnly);
        // The preview's session id for this request (drawn now when there was no preview); the
        // time is the write's, as pi names a file when it writes it (not when it was previewed).
        const reserved = this.reservations.reserve(sessionId, request, profile);
        const options = {
          ...(profile ? { profile } : {}),
          newSessionId: () => reserved.sessionId,
        };
        return { path, plan: planForkOf(session, path, request, options).plan };
      });
      if (!plan.ok) throw new CanopyError(refusalCode(plan.error.kind), plan.error.message);
      written = { path: await writeFork(path, plan), plan };
    } finally {
      // A fork consumes its reservation, written or not: the next preview draws a new name.
      this.reservations.take(sessionId, request, profile);
    }
    const row = await this.source.addWritten(written.path);
    return {
      sessionId: row?.sessionId ?? written.plan.header.id,
      path: written.path,
      command: resumeCommand(written.path),
      entryCount: written.plan.entries.length,
      leafId: written.plan.leafId,
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
