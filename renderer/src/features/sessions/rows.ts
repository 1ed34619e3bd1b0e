import type { KeepRecordDto, ProjectDto, SessionListDto, SessionRowDto, SessionSummaryDto } from '../../lib/shared';
import { listKeyMove } from '../../ui/list-keys';
import { sessionTitle } from '../../model/session-title';
import { isEmptyQuery, parseRankQuery, rankSession, type RankHit } from '../../model/session-rank';
import { sessionDoc, titleField } from '../../model/session-doc';
import type { SessionSort } from '../../store';

export type SidebarRow =
  | { kind: 'project'; key: string; project: ProjectDto; shown: number; collapsed: boolean }
  | {
      kind: 'session';
      key: string;
      session: SessionRowDto;
      summary: SessionSummaryDto | null;
      /** 0 for a top-level row; forks sit one level under their parent (when the parent is shown). */
      depth: number;
      /** Where the filter matched (null: no filter). */
      hit: RankHit | null;
      keep: KeepRecordDto | undefined;
    };

/** The group of the sessions opened or uploaded beyond the roots (listed first; never a real cwd, those are absolute). */
export const OPENED_GROUP = 'Opened';

export interface RowOptions {
  query: string;
  sort: SessionSort;
  /** false (or absent: true): one flat list across projects. */
  group?: boolean;
  collapsed: Readonly<Record<string, true>>;
  /** Canopy's records (names, tags, pins, notes) by session id. */
  keep?: Readonly<Record<string, KeepRecordDto>>;
  /** '' (or absent): every session; 'pinned'; or 'tag:<tag>'. */
  only?: string;
}

type Keep = Readonly<Record<string, KeepRecordDto>>;
const NO_KEEP: Keep = {};

/** The `only` choice as a test of a record. */
function onlyTest(only: string | undefined): (keep: KeepRecordDto | undefined) => boolean {
  if (!only) return () => true;
  if (only === 'pinned') return (k) => k?.pinned === true;
  const tag = only.startsWith('tag:') ? only.slice(4) : only;
  return (k) => k?.tags?.includes(tag) === true;
}

/** The rows the filter and the `only` choice keep, each with its hit (pi's ranking, session-rank.ts). */
function matching(list: SessionListDto, summaries: Summaries, opts: RowOptions): Map<SessionRowDto, RankHit | null> {
  const query = parseRankQuery(opts.query);
  const any = isEmptyQuery(query);
  const keep = opts.keep ?? NO_KEEP;
  const only = onlyTest(opts.only);
  const out = new Map<SessionRowDto, RankHit | null>();
  for (const row of list.sessions) {
    const record = keep[row.sessionId];
    if (!only(record)) continue;
    if (any) {
      out.set(row, null);
      continue;
    }
    const hit = rankSession(sessionDoc(row, summaries[row.sessionId] ?? row.summary, record), query);
    if (hit) out.set(row, hit);
  }
  return out;
}

const time = (iso: string | null | undefined): number => {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isNaN(t) ? 0 : t;
};

type Summaries = Readonly<Record<string, SessionSummaryDto>>;

/** Compares two sessions for a sort: dates and sizes largest first, names A→Z; ties by id. */
export function sessionComparator(
  sort: SessionSort,
  summaries: Summaries,
): (a: SessionRowDto, b: SessionRowDto) => number {
  const sum = (r: SessionRowDto) => summaries[r.sessionId] ?? r.summary;
  let cmp: (a: SessionRowDto, b: SessionRowDto) => number;
  switch (sort) {
    case 'created':
      cmp = (a, b) => time(b.createdAt) - time(a.createdAt);
      break;
    case 'name': {
      const names = new Map<SessionRowDto, string>();
      const name = (r: SessionRowDto) => names.get(r) ?? names.set(r, sessionTitle(r, sum(r)).toLowerCase()).get(r)!;
      cmp = (a, b) => name(a).localeCompare(name(b));
      break;
    }
    case 'size':
      cmp = (a, b) => b.sizeBytes - a.sizeBytes;
      break;
    case 'activity':
      cmp = (a, b) => time(sum(b)?.lastActivity ?? b.modifiedAt) - time(sum(a)?.lastActivity ?? a.modifiedAt);
      break;
    case 'entries':
      // Not yet counted sorts last.
      cmp = (a, b) => (sum(b)?.entryCount ?? -1) - (sum(a)?.entryCount ?? -1);
      break;
    default:
      cmp = (a, b) => time(b.modifiedAt) - time(a.modifiedAt);
  }
  return (a, b) => cmp(a, b) || a.sessionId.localeCompare(b.sessionId);
}

/**
 * The order of matching rows: pinned first, then (with a query) pi's tiers, whole hits before
 * scattered ones; then the chosen sort.
 */
function rowOrder(
  hits: ReadonlyMap<SessionRowDto, RankHit | null>,
  keep: Keep,
  sort: (a: SessionRowDto, b: SessionRowDto) => number,
): (a: SessionRowDto, b: SessionRowDto) => number {
  const pin = (r: SessionRowDto) => (keep[r.sessionId]?.pinned ? 0 : 1);
  const tier = (r: SessionRowDto) => hits.get(r)?.tier ?? 0;
  return (a, b) => pin(a) - pin(b) || tier(a) - tier(b) || sort(a, b);
}

function sessionRows(
  rows: SessionRowDto[],
  summaries: Summaries,
  hits: ReadonlyMap<SessionRowDto, RankHit | null>,
  keep: Keep,
): SidebarRow[] {
  return nestForks(rows).map(({ session, depth }) => ({
    kind: 'session',
    key: `s:${session.sessionId}`,
    session,
    summary: summaries[session.sessionId] ?? session.summary,
    depth,
    hit: hits.get(session) ?? null,
    keep: keep[session.sessionId],
  }));
}

/**
 * The flat row list the virtualized sidebar draws: projects (most recent activity first), each
 * followed by its matching sessions in the chosen order; or, ungrouped, all matching sessions in
 * that order. A project whose sessions all fail the filter is left out.
 */
export function buildSidebarRows(
  list: SessionListDto | null,
  summaries: Readonly<Record<string, SessionSummaryDto>>,
  opts: RowOptions,
): SidebarRow[] {
  if (!list) return [];
  const keep = opts.keep ?? NO_KEEP;
  const hits = matching(list, summaries, opts);
  const compare = rowOrder(hits, keep, sessionComparator(opts.sort, summaries));
  if (opts.group === false) return sessionRows([...hits.keys()].sort(compare), summaries, hits, keep);
  const byCwd = new Map<string, SessionRowDto[]>();
  for (const row of hits.keys()) {
    const cwd = row.origin ? OPENED_GROUP : row.cwd;
    const group = byCwd.get(cwd);
    if (group) group.push(row);
    else byCwd.set(cwd, [row]);
  }
  const projects = new Map(list.projects.map((p) => [p.cwd, p]));
  for (const [cwd, rows] of byCwd) {
    if (!projects.has(cwd)) {
      const last = rows.reduce((m, r) => (r.modifiedAt > m ? r.modifiedAt : m), '');
      projects.set(cwd, { cwd, sessionCount: rows.length, lastActivity: last });
    }
  }
  const ordered = [...projects.values()]
    .filter((p) => byCwd.has(p.cwd))
    .sort(
      (a, b) =>
        Number(b.cwd === OPENED_GROUP) - Number(a.cwd === OPENED_GROUP) ||
        time(b.lastActivity) - time(a.lastActivity) ||
        a.cwd.localeCompare(b.cwd),
    );

  const out: SidebarRow[] = [];
  for (const project of ordered) {
    const rows = byCwd.get(project.cwd)!;
    const collapsed = !!opts.collapsed[project.cwd];
    out.push({ kind: 'project', key: `p:${project.cwd}`, project, shown: rows.length, collapsed });
    if (collapsed) continue;
    out.push(...sessionRows(rows.sort(compare), summaries, hits, keep));
  }
  return out;
}

/**
 * Families by `parentSessionId`: each fork right under its parent (oldest fork first), the
 * parents in the given order. A fork whose parent is not among `rows` stays top level. Iterative;
 * a parent cycle is cut where it is first met.
 */
export function nestForks(rows: readonly SessionRowDto[]): Array<{ session: SessionRowDto; depth: number }> {
  const ids = new Set(rows.map((r) => r.sessionId));
  const kids = new Map<string, SessionRowDto[]>();
  const tops: SessionRowDto[] = [];
  for (const r of rows) {
    const p = r.parentSessionId;
    if (p && p !== r.sessionId && ids.has(p)) {
      const list = kids.get(p);
      if (list) list.push(r);
      else kids.set(p, [r]);
    } else tops.push(r);
  }
  for (const list of kids.values())
    list.sort((a, b) => time(a.createdAt) - time(b.createdAt) || a.sessionId.localeCompare(b.sessionId));

  const out: Array<{ session: SessionRowDto; depth: number }> = [];
  const emitted = new Set<string>();
  const emitTree = (top: SessionRowDto) => {
    const stack: Array<{ session: SessionRowDto; depth: number }> = [{ session: top, depth: 0 }];
    while (stack.length > 0) {
      const item = stack.pop()!;
      if (emitted.has(item.session.sessionId)) continue;
      emitted.add(item.session.sessionId);
      out.push(item);
      const children = kids.get(item.session.sessionId) ?? [];
      for (let i = children.length - 1; i >= 0; i--) stack.push({ session: children[i]!, depth: item.depth + 1 });
    }
  };
  for (const top of tops) emitTree(top);
  // Rows only reachable through a parent cycle.
  for (const r of rows) if (!emitted.has(r.sessionId)) emitTree(r);
  return out;
}

/**
 * Where a key in the filter box moves the list's cursor: like the list's own keys, but only onto
 * sessions (project headings are skipped, as pi's /resume has none). null: not a move key, or no session.
 */
export function filterKeyMove(rows: readonly SidebarRow[], at: number, key: string, page = 10): number | null {
  const next = listKeyMove(key, at, rows.length, page);
  if (next === null) return null;
  const back = key === 'ArrowUp' || key === 'PageUp' || key === 'End';
  const step = back ? -1 : 1;
  for (let i = next; i >= 0 && i < rows.length; i += step) if (rows[i]!.kind === 'session') return i;
  for (let i = next - step; i >= 0 && i < rows.length; i -= step) if (rows[i]!.kind === 'session') return i;
  return null;
}

/** A session row whose match lies outside its title gets a line for it (the row is taller). */
export function hasMatchLine(row: SidebarRow): boolean {
  if (row.kind !== 'session' || !row.hit) return false;
  const shows = titleField(row.summary, row.keep);
  return row.hit.marks.some((m) => m.field !== shows);
}
