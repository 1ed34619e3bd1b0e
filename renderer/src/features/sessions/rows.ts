import type { ProjectDto, SessionListDto, SessionRowDto, SessionSummaryDto } from '../../lib/shared';
import { listKeyMove } from '../../ui/list-keys';
import { sessionTitle } from '../../model/session-title';
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
    };

/** The group of the sessions opened or uploaded beyond the roots (listed first; never a real cwd, those are absolute). */
export const OPENED_GROUP = 'Opened';

export interface RowOptions {
  query: string;
  sort: SessionSort;
  /** false (or absent: true): one flat list across projects. */
  group?: boolean;
  collapsed: Readonly<Record<string, true>>;
}

function matches(row: SessionRowDto, summary: SessionSummaryDto | null, tokens: string[]): boolean {
  if (tokens.length === 0) return true;
  const hay =
    `${summary?.name ?? ''} ${summary?.firstMessage ?? ''} ${row.sessionId} ${row.cwd} ${row.fileName}`.toLowerCase();
  return tokens.every((t) => hay.includes(t));
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
    case 'entries':
      // Not yet counted sorts last.
      cmp = (a, b) => (sum(b)?.entryCount ?? -1) - (sum(a)?.entryCount ?? -1);
      break;
    default:
      cmp = (a, b) => time(b.modifiedAt) - time(a.modifiedAt);
  }
  return (a, b) => cmp(a, b) || a.sessionId.localeCompare(b.sessionId);
}

function sessionRows(rows: SessionRowDto[], summaries: Summaries): SidebarRow[] {
  return nestForks(rows).map(({ session, depth }) => ({
    kind: 'session',
    key: `s:${session.sessionId}`,
    session,
    summary: summaries[session.sessionId] ?? session.summary,
    depth,
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
  const tokens = opts.query.toLowerCase().split(/\s+/).filter(Boolean);
  const compare = sessionComparator(opts.sort, summaries);
  if (opts.group === false) {
    const matching = list.sessions.filter((row) => matches(row, summaries[row.sessionId] ?? row.summary, tokens));
    return sessionRows(matching.sort(compare), summaries);
  }
  const byCwd = new Map<string, SessionRowDto[]>();
  for (const row of list.sessions) {
    const summary = summaries[row.sessionId] ?? row.summary;
    if (!matches(row, summary, tokens)) continue;
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
    out.push(...sessionRows(rows.sort(compare), summaries));
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
