/**
 * The catalog's rows: by id (with aliases) and by path, and the listing they make. A change to the
 * store changes rows in place (added, changed, removed) and is collected as a SessionsChangeDto for
 * `sessions.changed`; the listing is never thrown away for one file.
 */
import type { SessionListDto, SessionRowDto, SessionsChangeDto, SkippedDto } from '../shared/dto';
import { baseName, groupProjects, type Known } from './listing-rows';
import { copyKey } from './session-keys';

export class ListingTable {
  private byId = new Map<string, Known>();
  private byPath = new Map<string, Known>();
  private current: SessionListDto | null = null;
  private readonly added = new Map<string, SessionRowDto>();
  private readonly changed = new Set<SessionRowDto>();
  private readonly removed = new Set<string>();
  private skippedChanged = false;
  /** Rows by their parent's id: built when first asked for after a change to the rows, not per lineage. */
  private children: Map<string, SessionRowDto[]> | null = null;
  /** How many times the children index was built (tests assert it is once per change). */
  childIndexBuilds = 0;

  get listing(): SessionListDto | null {
    return this.current;
  }

  /** A whole new listing (`rows` as listed, aliases included); what was collected is dropped. */
  reset(listing: SessionListDto, rows: readonly Known[]): void {
    this.current = listing;
    this.byId = new Map(rows.flatMap((k) => [k.row.sessionId, ...k.aliases].map((key) => [key, k] as const)));
    this.byPath = new Map(rows.map((k) => [k.path, k]));
    this.added.clear();
    this.changed.clear();
    this.removed.clear();
    this.skippedChanged = false;
    this.children = null;
  }

  /** The rows whose parentSessionId is `sessionId`. */
  childrenOf(sessionId: string): readonly SessionRowDto[] {
    if (!this.children) {
      this.childIndexBuilds++;
      const index = new Map<string, SessionRowDto[]>();
      for (const r of this.current?.sessions ?? []) {
        if (r.parentSessionId === null || r.parentSessionId === r.sessionId) continue;
        const list = index.get(r.parentSessionId);
        if (list) list.push(r);
        else index.set(r.parentSessionId, [r]);
      }
      this.children = index;
    }
    return this.children.get(sessionId) ?? [];
  }

  get(sessionId: string): Known | undefined {
    return this.byId.get(sessionId);
  }

  has(sessionId: string): boolean {
    return this.byId.has(sessionId);
  }

  atPath(path: string): Known | undefined {
    return this.byPath.get(path);
  }

  /** The listed paths (live: it follows every change). */
  paths(): ReadonlySet<string> {
    return new Set(this.byPath.keys());
  }

  /**
   * A new file's row joins the listing, in path order. A listed id keeps naming its file: a new
   * file with the same header id gets its `~hash` key (session-keys.ts), whatever its path.
   */
  add(k: Known): SessionRowDto {
    const listing = this.need();
    if (this.byId.has(k.row.sessionId)) k.row.sessionId = copyKey(k.row.sessionId, k.path);
    const parent = k.row.parentSessionPath;
    if (parent) k.row.parentSessionId = this.parentIdOf(parent);
    this.byId.set(k.row.sessionId, k);
    this.byPath.set(k.path, k);
    const rows = listing.sessions;
    const at = rows.findIndex((r) => r.path > k.path);
    rows.splice(at < 0 ? rows.length : at, 0, k.row);
    this.added.set(k.row.sessionId, k.row);
    this.children = null;
    // Rows that named this file as their parent before it was listed now link to it.
    for (const r of rows) {
      if (r.parentSessionId === null && r !== k.row && r.parentSessionPath && this.isFile(r.parentSessionPath, k)) {
        r.parentSessionId = k.row.sessionId;
        this.change(r);
      }
    }
    return k.row;
  }

  /** A row whose fields were updated in place (its parent link may be among them). */
  change(row: SessionRowDto): void {
    if (!this.added.has(row.sessionId)) this.changed.add(row);
    this.children = null;
  }

  /** A file that is gone: its row leaves the listing, and its children lose their link. */
  remove(k: Known): void {
    const listing = this.need();
    const id = k.row.sessionId;
    for (const [key, known] of this.byId) if (known === k) this.byId.delete(key);
    this.byPath.delete(k.path);
    const at = listing.sessions.indexOf(k.row);
    if (at >= 0) listing.sessions.splice(at, 1);
    this.changed.delete(k.row);
    this.children = null;
    if (this.added.has(id)) this.added.delete(id);
    else this.removed.add(id);
    for (const r of listing.sessions) {
      if (r.parentSessionId !== id) continue;
      r.parentSessionId = null;
      this.change(r);
    }
  }

  /** A file that cannot be listed (its error), once per path. */
  skip(skipped: SkippedDto): void {
    const list = this.need().skipped;
    const at = list.findIndex((s) => s.path === skipped.path);
    if (at >= 0) list.splice(at, 1, skipped);
    else list.push(skipped);
    this.skippedChanged = true;
  }

  /** What changed since the last take (projects counted again), or null when nothing did. */
  take(): SessionsChangeDto | null {
    const listing = this.current;
    if (!listing) return null;
    if (this.added.size + this.changed.size + this.removed.size === 0 && !this.skippedChanged) return null;
    listing.projects = groupProjects(listing.sessions);
    const change: SessionsChangeDto = {
      added: [...this.added.values()],
      changed: [...this.changed],
      removed: [...this.removed],
      projects: listing.projects,
      skipped: listing.skipped,
    };
    this.added.clear();
    this.changed.clear();
    this.removed.clear();
    this.skippedChanged = false;
    return change;
  }

  /** As the listing links a parent: by path, else by its file name (pi's time stamp and id) when only one row has it. */
  private parentIdOf(parentPath: string): string | null {
    const byPath = this.byPath.get(parentPath);
    if (byPath) return byPath.row.sessionId;
    const name = baseName(parentPath);
    let found: string | null = null;
    for (const r of this.need().sessions) {
      if (r.fileName !== name) continue;
      if (found !== null) return null;
      found = r.sessionId;
    }
    return found;
  }

  private isFile(parentPath: string, k: Known): boolean {
    return parentPath === k.path || baseName(parentPath) === k.row.fileName;
  }

  private need(): SessionListDto {
    if (!this.current) throw new Error('no listing yet');
    return this.current;
  }
}

/** The change from the rows `before` to `after` (a listing made anew); rows of unchanged files keep their summaries. */
export function diffListings(before: readonly SessionRowDto[], after: SessionListDto): SessionsChangeDto {
  const old = new Map(before.map((r) => [r.sessionId, r]));
  const change: SessionsChangeDto = {
    added: [],
    changed: [],
    removed: [],
    projects: after.projects,
    skipped: after.skipped,
  };
  for (const row of after.sessions) {
    const was = old.get(row.sessionId);
    old.delete(row.sessionId);
    if (!was) change.added.push(row);
    else if (was.path !== row.path || was.sizeBytes !== row.sizeBytes || was.modifiedAt !== row.modifiedAt)
      change.changed.push(row);
    else row.summary = was.summary;
  }
  change.removed = [...old.keys()];
  return change;
}
