import type { ProjectDto, SessionListDto, SessionRowDto, SessionSummaryDto } from '../../lib/shared';
import type { SessionSort } from '../../store';

export type SidebarRow =
  | { kind: 'project'; key: string; project: ProjectDto; shown: number; collapsed: boolean }
  | { kind: 'session'; key: string; session: SessionRowDto; summary: SessionSummaryDto | null };

export interface RowOptions {
  query: string;
  sort: SessionSort;
  collapsed: Readonly<Record<string, true>>;
}

export function sessionTitle(row: SessionRowDto, summary: SessionSummaryDto | null): string {
  return summary?.name?.trim() || summary?.firstMessage?.trim() || row.fileName;
}

function matches(row: SessionRowDto, summary: SessionSummaryDto | null, tokens: string[]): boolean {
  if (tokens.length === 0) return true;
  const hay = `${summary?.name ?? ''} ${summary?.firstMessage ?? ''} ${row.sessionId} ${row.cwd} ${row.fileName}`.toLowerCase();
  return tokens.every((t) => hay.includes(t));
}

const time = (iso: string | null | undefined): number => {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isNaN(t) ? 0 : t;
};

/**
 * The flat row list the virtualized sidebar draws: projects (most recent activity first), each
 * followed by its matching sessions (newest first by the chosen date). A project whose sessions
 * all fail the filter is left out.
 */
export function buildSidebarRows(
  list: SessionListDto | null,
  summaries: Readonly<Record<string, SessionSummaryDto>>,
  opts: RowOptions,
): SidebarRow[] {
  if (!list) return [];
  const tokens = opts.query.toLowerCase().split(/\s+/).filter(Boolean);
  const byCwd = new Map<string, SessionRowDto[]>();
  for (const row of list.sessions) {
    const summary = summaries[row.sessionId] ?? row.summary;
    if (!matches(row, summary, tokens)) continue;
    const group = byCwd.get(row.cwd);
    if (group) group.push(row);
    else byCwd.set(row.cwd, [row]);
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
    .sort((a, b) => time(b.lastActivity) - time(a.lastActivity) || a.cwd.localeCompare(b.cwd));

  const key = opts.sort === 'created' ? (r: SessionRowDto) => time(r.createdAt) : (r: SessionRowDto) => time(r.modifiedAt);
  const out: SidebarRow[] = [];
  for (const project of ordered) {
    const rows = byCwd.get(project.cwd)!;
    const collapsed = !!opts.collapsed[project.cwd];
    out.push({ kind: 'project', key: `p:${project.cwd}`, project, shown: rows.length, collapsed });
    if (collapsed) continue;
    rows.sort((a, b) => key(b) - key(a) || a.sessionId.localeCompare(b.sessionId));
    for (const session of rows) {
      out.push({ kind: 'session', key: `s:${session.sessionId}`, session, summary: summaries[session.sessionId] ?? session.summary });
    }
  }
  return out;
}
