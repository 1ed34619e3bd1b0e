/** The catalog's listing, row by row: confinement, merging the opened files in, keys, projects. */
import type { ProjectDto, SessionRowDto } from '../shared/dto';
import { CanopyError } from '../shared/errors';
import { realPathSync } from '../storage/stat';
import { insideRealRoots, realRoots } from './confine';
import { assignKeys } from './session-keys';
import type { SessionInfo, SessionListing } from './sessions';

export interface Known {
  row: SessionRowDto;
  path: string;
  /** Other keys naming this file (session-keys.ts). */
  aliases: string[];
}

/**
 * Sessions whose file resolves outside every root (a symlink pointing elsewhere) are not shown:
 * they move to `skipped` before anything read from them reaches the renderer.
 */
export function confineListing(listing: SessionListing, roots: readonly string[]): SessionListing {
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

/** Both listings, each path once (an opened folder may hold files a root lists too). */
export function mergeListings(a: SessionListing, b: SessionListing): SessionListing {
  const seen = new Set(a.sessions.map((s) => s.path));
  return {
    sessions: [...a.sessions, ...b.sessions.filter((s) => !seen.has(s.path))],
    skipped: [...a.skipped, ...b.skipped.filter((s) => !a.skipped.some((t) => t.path === s.path))],
  };
}

export function outside(real: readonly string[], path: string): boolean {
  try {
    insideRealRoots(real, path);
    return false;
  } catch {
    return true;
  }
}

export function safeReal(path: string): string | null {
  try {
    return realPathSync(path);
  } catch {
    return null;
  }
}

export function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

/** Session ids are the header ids; copies get a `~hash` key that survives root changes (session-keys.ts). */
export function assignIds(sessions: SessionInfo[], yields?: (s: SessionInfo) => boolean): Known[] {
  return assignKeys(sessions, yields).map(({ item: s, key, aliases }) => {
    const row: SessionRowDto = {
      sessionId: key,
      cwd: s.cwd,
      createdAt: s.createdAt,
      modifiedAt: s.modifiedAt,
      sizeBytes: s.sizeBytes,
      fileName: baseName(s.path),
      path: s.path,
      parentSessionId: null,
      parentSessionPath: s.parentSessionPath ?? null,
      summary: null,
    };
    return { row, path: s.path, aliases };
  });
}

export function groupProjects(rows: SessionRowDto[]): ProjectDto[] {
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

/**
 * Each row's parent id: the row of its header's parentSession path, else of the same file name
 * (pi's time stamp and session id) for a parent that moved (synced from another machine, the
 * relocated demo); only an unambiguous name counts.
 */
export function linkParents(rows: readonly Known[]): void {
  const idByPath = new Map(rows.map((k) => [k.path, k.row.sessionId]));
  const idByName = new Map<string, string | null>();
  for (const k of rows) idByName.set(k.row.fileName, idByName.has(k.row.fileName) ? null : k.row.sessionId);
  for (const k of rows) {
    const parent = k.row.parentSessionPath;
    k.row.parentSessionId = parent ? (idByPath.get(parent) ?? idByName.get(baseName(parent)) ?? null) : null;
  }
}

/** The rows' paths, most recently modified first: the order the background passes read them in. */
export function newestFirstPaths(rows: readonly SessionRowDto[]): string[] {
  return [...rows]
    .sort((a, b) => (a.modifiedAt < b.modifiedAt ? 1 : a.modifiedAt > b.modifiedAt ? -1 : 0))
    .map((r) => r.path);
}
