import type { KeepRecordDto, ProjectDto, SessionListDto, SessionRowDto, SessionSummaryDto } from '../../lib/shared';
import { listKeyMove } from '../../ui/list-keys';
import { sessionTitle } from '../../model/session-title';
import {
  fieldBit,
  isEmptyQuery,
  narrowsFrom,
  parseRankQuery,
  rankSession,
  type RankHit,
} from '../../model/session-rank';
import { sessionDoc, titleField } from '../../model/session-doc';
import type { SessionSpend } from '../../model/session-spend';
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
      /** How the filter matched (null: no filter); its marks are made when the row is drawn. */
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
  /** '' (or absent): every session; 'pinned'; 'tag:<tag>'; or 'model:<model>' (needs `spend`). */
  only?: string;
  /** Cost and main model by session id, once the store report has them (sort by cost, only a model). */
  spend?: Readonly<Record<string, SessionSpend>> | null;
}

type Keep = Readonly<Record<string, KeepRecordDto>>;
const NO_KEEP: Keep = {};

/** The `only` choice as a test of a session's record (and spend). */
function onlyTest(
  only: string | undefined,
  spend: RowOptions['spend'],
): (keep: KeepRecordDto | undefined, id: string) => boolean {
  if (!only || only === 'models') return () => true;
  if (only === 'pinned') return (k) => k?.pinned === true;
  if (only.startsWith('model:')) {
    const model = only.slice(6);
    return (_k, id) => spend?.[id]?.model === model;
  }
  const tag = only.startsWith('tag:') ? only.slice(4) : only;
  return (k) => k?.tags?.includes(tag) === true;
}

/** The rows the filter and the `only` choice keep, each with its hit (pi's ranking, session-rank.ts). */
function matching(
  list: SessionListDto,
  summaries: Summaries,
  opts: RowOptions,
  within: ReadonlySet<SessionRowDto> | null,
): Map<SessionRowDto, RankHit | null> {
  const query = parseRankQuery(opts.query);
  const any = isEmptyQuery(query);
  const keep = opts.keep ?? NO_KEEP;
  const only = onlyTest(opts.only, opts.spend);
  const out = new Map<SessionRowDto, RankHit | null>();
  for (const row of within ?? list.sessions) {
    const record = keep[row.sessionId];
    if (!only(record, row.sessionId)) continue;
    if (any) {
      out.set(row, null);
      continue;
    }
    const hit = rankSession(sessionDoc(row, summaries[row.sessionId] ?? row.summary, record), query, false);
    if (hit) out.set(row, hit);
  }
  return out;
}

const time = (iso: string | null | undefined): number => {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isNaN(t) ? 0 : t;
};

type Summaries = Readonly<Record<string, SessionSummaryDto>>;

/**
 * Each session's key for a sort, ascending: dates, sizes and counts negated (largest first),
 * names lower-cased (A→Z). Computed once per row per sort, not once per comparison.
 */
function sortKey(
  sort: SessionSort,
  summaries: Summaries,
  spend?: RowOptions['spend'],
): (r: SessionRowDto) => number | string {
  const sum = (r: SessionRowDto) => summaries[r.sessionId] ?? r.summary;
  switch (sort) {
    case 'cost':
      // Not yet known sorts last.
      return (r) => -(spend?.[r.sessionId]?.cost ?? -1);
    case 'created':
      return (r) => -time(r.createdAt);
    case 'name':
      return (r) => sessionTitle(r, sum(r)).toLowerCase();
    case 'size':
      return (r) => -r.sizeBytes;
    case 'activity':
      return (r) => -time(sum(r)?.lastActivity ?? r.modifiedAt);
    case 'entries':
      // Not yet counted sorts last.
      return (r) => -(sum(r)?.entryCount ?? -1);
    default:
      return (r) => -time(r.modifiedAt);
  }
}

interface Keyed {
  row: SessionRowDto;
  /** Pinned first, then pi's tier. */
  group: number;
  key: number | string;
}

function byKey(a: Keyed, b: Keyed): number {
  const k =
    typeof a.key === 'number' && typeof b.key === 'number' ? a.key - b.key : String(a.key).localeCompare(String(b.key));
  return a.group - b.group || k || a.row.sessionId.localeCompare(b.row.sessionId);
}

/** Compares two sessions for a sort: dates and sizes largest first, names A→Z; ties by id. */
export function sessionComparator(
  sort: SessionSort,
  summaries: Summaries,
): (a: SessionRowDto, b: SessionRowDto) => number {
  const key = sortKey(sort, summaries);
  return (a, b) => byKey({ row: a, group: 0, key: key(a) }, { row: b, group: 0, key: key(b) });
}

/**
 * Matching rows in order: pinned first, then (with a query) pi's tiers, whole hits before
 * scattered ones; then the chosen sort.
 */
function inOrder(
  rows: Iterable<SessionRowDto>,
  hits: ReadonlyMap<SessionRowDto, RankHit | null>,
  keep: Keep,
  key: (r: SessionRowDto) => number | string,
): SessionRowDto[] {
  const keyed: Keyed[] = [];
  for (const row of rows)
    keyed.push({ row, group: (keep[row.sessionId]?.pinned ? 0 : 4) + (hits.get(row)?.tier ?? 0), key: key(row) });
  return keyed.sort(byKey).map((k) => k.row);
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
  return list ? buildRows(list, summaries, opts, null).rows : [];
}

/**
 * buildSidebarRows for a filter being typed: a query that only adds to the last one matches a
 * subset of its sessions (narrowsFrom), so only those are ranked again.
 */
export function sidebarRowsWhileTyping(): (
  list: SessionListDto | null,
  summaries: Readonly<Record<string, SessionSummaryDto>>,
  opts: RowOptions,
) => SidebarRow[] {
  let last: { list: SessionListDto; summaries: Summaries; opts: RowOptions; matched: Set<SessionRowDto> } | null = null;
  return (list, summaries, opts) => {
    if (!list) return [];
    const same =
      last &&
      last.list === list &&
      last.summaries === summaries &&
      last.opts.keep === opts.keep &&
      last.opts.only === opts.only &&
      last.opts.spend === opts.spend &&
      narrowsFrom(last.opts.query, opts.query);
    const out = buildRows(list, summaries, opts, same ? last!.matched : null);
    last = { list, summaries, opts, matched: new Set(out.hits.keys()) };
    return out.rows;
  };
}

function buildRows(
  list: SessionListDto,
  summaries: Summaries,
  opts: RowOptions,
  within: ReadonlySet<SessionRowDto> | null,
): { rows: SidebarRow[]; hits: Map<SessionRowDto, RankHit | null> } {
  const keep = opts.keep ?? NO_KEEP;
  const hits = matching(list, summaries, opts, within);
  const key = sortKey(opts.sort, summaries, opts.spend);
  if (opts.group === false)
    return { rows: sessionRows(inOrder(hits.keys(), hits, keep, key), summaries, hits, keep), hits };
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
    out.push(...sessionRows(inOrder(rows, hits, keep, key), summaries, hits, keep));
  }
  return { rows: out, hits };
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
  return (row.hit.where & ~fieldBit(titleField(row.summary, row.keep))) !== 0;
}
