/**
 * What fills the disk: each session's bytes split into parts that add up to its size, per project
 * and store totals, the largest sessions, and fork families none of whose files was written for a
 * while. PURE.
 *
 * A line's image data and tool / bash output count as such wherever they are; the rest of an entry
 * line counts as `copied` when the fork parent holds the same entry (same id and timestamp), else
 * as `abandoned` when it is off the session's current path, else as `rest` (with the header, blank
 * and unreadable lines and the newlines).
 */
import { activePath, entryKey, type SessionFacts } from './store-families';

export interface StorageSplit {
  image: number;
  toolOutput: number;
  abandoned: number;
  copied: number;
  rest: number;
  total: number;
}

export interface SessionStorage {
  path: string;
  id: string;
  cwd: string;
  /** The family's oldest session id. */
  family: string;
  mtimeMs: number;
  split: StorageSplit;
}

export interface FamilyStorage {
  family: string;
  sessions: { id: string; path: string }[];
  bytes: number;
  /** The latest write to any member. */
  lastWriteMs: number;
}

export interface StorageReport {
  total: StorageSplit & { sessions: number; families: number };
  projects: (StorageSplit & { project: string; sessions: number })[];
  largest: SessionStorage[];
  /** Families none of whose files was written within the stale window, largest first. */
  stale: FamilyStorage[];
}

export const emptySplit = (): StorageSplit => ({ image: 0, toolOutput: 0, abandoned: 0, copied: 0, rest: 0, total: 0 });

function addSplit(to: StorageSplit, s: StorageSplit): void {
  to.image += s.image;
  to.toolOutput += s.toolOutput;
  to.abandoned += s.abandoned;
  to.copied += s.copied;
  to.rest += s.rest;
  to.total += s.total;
}

/** The split of `s`, given its fork parent's facts (null: no parent in the store). */
export function splitSession(s: SessionFacts, parent: SessionFacts | null): StorageSplit {
  const out = emptySplit();
  const onPath = activePath(s);
  const parentKeys = parent ? new Set(parent.entries.map(entryKey)) : null;
  out.rest += s.otherBytes;
  s.entries.forEach((e, i) => {
    out.image += e.imageBytes;
    out.toolOutput += e.outputBytes;
    const restOfLine = e.bytes - e.imageBytes - e.outputBytes;
    if (parentKeys?.has(entryKey(e))) out.copied += restOfLine;
    else if (!onPath.has(i)) out.abandoned += restOfLine;
    else out.rest += restOfLine;
  });
  out.total = s.sizeBytes;
  return out;
}

export interface StorageOptions {
  /** How many of the largest sessions to keep (default 20). */
  top?: number;
  /** A family is stale when no member was written in this many days (default 30). */
  staleDays?: number;
  nowMs: number;
}

export class StorageAccumulator {
  private readonly total = { ...emptySplit(), sessions: 0, families: 0 };
  private readonly projects = new Map<string, StorageSplit & { project: string; sessions: number }>();
  private largest: SessionStorage[] = [];
  private readonly stale: FamilyStorage[] = [];
  private readonly top: number;
  private readonly staleBeforeMs: number;

  constructor(opts: StorageOptions) {
    this.top = opts.top ?? 20;
    this.staleBeforeMs = opts.nowMs - (opts.staleDays ?? 30) * 86_400_000;
  }

  /**
   * Adds one family (oldest first); `parentOf[i]` is the index of member i's fork parent, or -1.
   * Returns its sessions' storage.
   */
  addFamily(members: readonly SessionFacts[], parentOf: readonly number[]): SessionStorage[] {
    if (members.length === 0) return [];
    const family = members[0]!.header.id;
    const rows = members.map((s, i): SessionStorage => {
      const p = parentOf[i] ?? -1;
      return {
        path: s.path,
        id: s.header.id,
        cwd: s.header.cwd,
        family,
        mtimeMs: s.mtimeMs,
        split: splitSession(s, p >= 0 ? members[p]! : null),
      };
    });
    this.total.families++;
    let bytes = 0;
    let lastWriteMs = 0;
    for (const r of rows) {
      this.total.sessions++;
      addSplit(this.total, r.split);
      let p = this.projects.get(r.cwd);
      if (!p) this.projects.set(r.cwd, (p = { project: r.cwd, sessions: 0, ...emptySplit() }));
      p.sessions++;
      addSplit(p, r.split);
      bytes += r.split.total;
      lastWriteMs = Math.max(lastWriteMs, r.mtimeMs);
    }
    this.largest.push(...rows);
    if (this.largest.length > this.top * 4) this.trimLargest();
    if (lastWriteMs < this.staleBeforeMs) {
      this.stale.push({ family, sessions: rows.map((r) => ({ id: r.id, path: r.path })), bytes, lastWriteMs });
    }
    return rows;
  }

  private trimLargest(): void {
    this.largest.sort((a, b) => b.split.total - a.split.total);
    this.largest.length = Math.min(this.largest.length, this.top);
  }

  report(): StorageReport {
    this.trimLargest();
    return {
      total: { ...this.total },
      projects: [...this.projects.values()].sort((a, b) => b.total - a.total),
      largest: [...this.largest],
      stale: [...this.stale].sort((a, b) => b.bytes - a.bytes),
    };
  }
}
