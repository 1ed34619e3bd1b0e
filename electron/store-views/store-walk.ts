/**
 * The whole store, family by family: list the sessions under the roots (headers only), join them
 * into fork families by their `parentSession` paths, and read each family's files, handing one family
 * at a time to the caller (memory stays bounded by the largest family, not the store).
 */
import { resolve } from 'node:path';
import { familiesOf, type SessionFacts } from './rules/store-families';
import { listSessions, type SessionInfo, type SkippedFile } from '../repo/sessions';
import { readSessionFacts } from './session-facts';

export interface WalkProgress {
  /** Bytes read so far and the bytes of every listed session. */
  bytesDone: number;
  bytesTotal: number;
  sessionsDone: number;
  sessionsTotal: number;
}

export interface WalkOptions {
  signal?: AbortSignal;
  onProgress?: (p: WalkProgress) => void;
  pause?: () => Promise<void> | null;
  /** Measure image and output bytes (storage); usage does without. Default true. */
  blocks?: boolean;
}

export interface WalkResult {
  sessions: number;
  families: number;
  bytes: number;
  /** Files that could not be listed or read (the rest is still reported). */
  skipped: SkippedFile[];
}

/** Listed sessions grouped into families, each oldest first (by header time, then path). */
export function familyGroups<T extends WalkedSession>(sessions: readonly T[]): T[][] {
  const sorted = [...sessions].sort(
    (a, b) => a.createdAt.localeCompare(b.createdAt) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
  const index = new Map<string, number>();
  sorted.forEach((s, i) => index.set(resolve(s.path), i));
  const groups = familiesOf(sorted.length, (i) => {
    const p = sorted[i]!.parentSessionPath;
    return p === undefined ? -1 : (index.get(resolve(p)) ?? -1);
  });
  return groups.map((g) => g.map((i) => sorted[i]!));
}

/** Each member's fork parent as an index into `members` (-1: none among them). */
export function parentIndices(members: readonly WalkedSession[]): number[] {
  const at = new Map(members.map((m, i) => [resolve(m.path), i]));
  return members.map((m) => (m.parentSessionPath === undefined ? -1 : (at.get(resolve(m.parentSessionPath)) ?? -1)));
}

/** What the walk needs of a listed session (the CLI's SessionInfo, the app's listing rows). */
export type WalkedSession = Pick<SessionInfo, 'path' | 'createdAt' | 'parentSessionPath' | 'sizeBytes'>;

export type FamilyVisitor<T extends WalkedSession> = (members: SessionFacts[], infos: T[], parentOf: number[]) => void;

/** The sessions under the roots (listed by their headers), family by family. */
export async function walkFamilies(
  roots: readonly string[],
  visit: FamilyVisitor<SessionInfo>,
  opts: WalkOptions = {},
): Promise<WalkResult> {
  const listing = await listSessions(roots, opts.signal ? { signal: opts.signal } : {});
  const result = await walkSessions(listing.sessions, visit, opts);
  return { ...result, skipped: [...listing.skipped, ...result.skipped] };
}

/** Listed sessions, family by family. */
export async function walkSessions<T extends WalkedSession>(
  sessions: readonly T[],
  visit: FamilyVisitor<T>,
  opts: WalkOptions = {},
): Promise<WalkResult> {
  const listing = { sessions };
  const groups = familyGroups(listing.sessions);
  const skipped: SkippedFile[] = [];
  const progress: WalkProgress = {
    bytesDone: 0,
    bytesTotal: listing.sessions.reduce((n, s) => n + s.sizeBytes, 0),
    sessionsDone: 0,
    sessionsTotal: listing.sessions.length,
  };
  let bytes = 0;
  for (const infos of groups) {
    const members: SessionFacts[] = [];
    const kept: T[] = [];
    for (const info of infos) {
      // Between files too: a small file ends before its scan's first pause point.
      const hold = opts.pause?.();
      if (hold) await hold;
      try {
        const facts = await readSessionFacts(info.path, {
          ...(opts.signal ? { signal: opts.signal } : {}),
          ...(opts.pause ? { pause: opts.pause } : {}),
          ...(opts.blocks === false ? { blocks: false } : {}),
        });
        members.push(facts);
        kept.push(info);
        bytes += facts.sizeBytes;
      } catch (err) {
        if (opts.signal?.aborted) throw err;
        skipped.push({ path: info.path, error: { code: 'io', message: (err as Error).message } });
      }
      progress.bytesDone += info.sizeBytes;
      progress.sessionsDone++;
    }
    opts.onProgress?.({ ...progress });
    if (members.length > 0) visit(members, kept, parentIndices(kept));
  }
  return { sessions: listing.sessions.length, families: groups.length, bytes, skipped };
}
