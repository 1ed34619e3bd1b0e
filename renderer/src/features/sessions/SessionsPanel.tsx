import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useMemo, useRef, type CSSProperties } from 'react';
import { useActions, useCanopy } from '../../app-context';
import { formatBytes, formatCount, formatDateTime, formatRelative, formatShortDate, shortCwd } from '../../lib/format';
import type { ProjectDto, SessionRowDto, SessionSummaryDto } from '../../lib/shared';
import { ForkIcon } from '../../lib/icons';
import { ProgressLine } from '../progress/ProgressLine';
import { buildSidebarRows, sessionTitle, type SidebarRow } from './rows';

const PROJECT_ROW = 34;
const SESSION_ROW = 52;
const INDENT = 14;
/** Deeper fork chains stop indenting (the row would run out of room). */
const MAX_INDENT = 4;

export function SessionsPanel({ initialHeight = 700 }: { initialHeight?: number }) {
  const actions = useActions();
  const list = useCanopy((s) => s.sessionList);
  const summaries = useCanopy((s) => s.summaries);
  const query = useCanopy((s) => s.sessionQuery);
  const sort = useCanopy((s) => s.sessionSort);
  const collapsed = useCanopy((s) => s.collapsedProjects);
  const listing = useCanopy((s) => s.listing);
  const listProgress = useCanopy((s) => s.listProgress);
  const summaryFill = useCanopy((s) => s.summaryFill);
  const listError = useCanopy((s) => s.listError);
  const setQuery = useCanopy((s) => s.setSessionQuery);
  const setSort = useCanopy((s) => s.setSessionSort);

  const rows = useMemo(() => buildSidebarRows(list, summaries, { query, sort, collapsed }), [list, summaries, query, sort, collapsed]);
  const total = list?.sessions.length ?? 0;
  const shown = rows.reduce((n, r) => (r.kind === 'session' ? n + 1 : n), 0);

  return (
    <section className="sessions" aria-label="Sessions">
      <div className="panel-head">
        <h2>Sessions</h2>
        <span className="muted small" data-testid="session-count">
          {query ? `${shown} of ${total}` : total}
        </span>
        <span className="grow" />
        <select
          className="compact"
          aria-label="Sort sessions"
          value={sort}
          onChange={(e) => setSort(e.target.value === 'created' ? 'created' : 'modified')}
        >
          <option value="modified">Modified</option>
          <option value="created">Created</option>
        </select>
        <button type="button" className="icon-button" title="Rescan session folders" aria-label="Refresh" onClick={() => void actions.loadSessions({ refresh: true })}>
          ⟳
        </button>
      </div>
      <div className="filter-box">
        <input
          type="search"
          placeholder="Filter sessions…"
          aria-label="Filter sessions"
          data-testid="session-filter"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      </div>
      {listing && <ProgressLine label="Listing sessions…" progress={listProgress} format={formatCount} testId="listing-progress" />}
      {!listing && summaryFill && (
        <ProgressLine label="Reading session names…" progress={summaryFill} format={formatCount} testId="summary-progress" subtle />
      )}
      {listError && (
        <div className="error-note" role="alert">
          Could not list sessions: {listError.message}
        </div>
      )}
      {list && list.skipped.length > 0 && (
        <details className="skipped">
          <summary>
            {list.skipped.length} file{list.skipped.length === 1 ? '' : 's'} skipped
          </summary>
          <ul>
            {list.skipped.slice(0, 50).map((s) => (
              <li key={s.path} title={s.path}>
                <code>{s.path.split(/[\\/]/).pop()}</code> — {s.error.message}
              </li>
            ))}
          </ul>
        </details>
      )}
      <SessionList rows={rows} initialHeight={initialHeight} />
      {list && rows.length === 0 && !listing && <div className="empty-note">{query ? 'No session matches the filter.' : 'No sessions found.'}</div>}
    </section>
  );
}

function SessionList({ rows, initialHeight }: { rows: SidebarRow[]; initialHeight: number }) {
  const actions = useActions();
  const openId = useCanopy((s) => s.openSessionId);
  const toggleProject = useCanopy((s) => s.toggleProject);
  const parentRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => parentRef.current,
    estimateSize: (i) => (rows[i]?.kind === 'project' ? PROJECT_ROW : SESSION_ROW),
    getItemKey: (i) => rows[i]?.key ?? i,
    overscan: 8,
    initialRect: { width: 280, height: initialHeight },
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? -1;

  // Bring the open session into view (deep links, "open parent" on a fork marker).
  useEffect(() => {
    if (!openId) return;
    const at = rows.findIndex((r) => r.kind === 'session' && r.session.sessionId === openId);
    if (at >= 0) virtualizer.scrollToIndex(at, { align: 'auto' });
    // Only when the open session changes, not on every list refresh.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [openId]);

  // Summaries for what is on screen (and the overscan), asked in batches.
  useEffect(() => {
    const ids: string[] = [];
    for (let i = first; i <= last; i++) {
      const row = rows[i];
      if (row?.kind === 'session' && !row.summary) ids.push(row.session.sessionId);
    }
    if (ids.length > 0) actions.requestSummaries(ids);
  }, [first, last, rows, actions]);

  return (
    <div className="session-scroll" ref={parentRef} data-testid="session-list">
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {items.map((item) => {
          const row = rows[item.index]!;
          return (
            <div
              key={item.key}
              className="virtual-row"
              style={{ transform: `translateY(${item.start}px)`, height: item.size }}
            >
              {row.kind === 'project' ? (
                <ProjectRow project={row.project} shown={row.shown} collapsed={row.collapsed} onToggle={toggleProject} />
              ) : (
                <SessionRow
                  session={row.session}
                  summary={row.summary}
                  depth={row.depth}
                  active={row.session.sessionId === openId}
                  onOpen={(id) => void actions.openSession(id)}
                />
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}

const ProjectRow = memo(function ProjectRow({
  project,
  shown,
  collapsed,
  onToggle,
}: {
  project: ProjectDto;
  shown: number;
  collapsed: boolean;
  onToggle: (cwd: string) => void;
}) {
  return (
    <button
      type="button"
      className="project-row"
      data-testid="project-row"
      aria-expanded={!collapsed}
      title={project.cwd}
      onClick={() => onToggle(project.cwd)}
    >
      <span className="chevron" aria-hidden>
        {collapsed ? '▸' : '▾'}
      </span>
      <span className="project-cwd">{shortCwd(project.cwd)}</span>
      <span className="pill" title={`${project.sessionCount} sessions`}>
        {shown === project.sessionCount ? project.sessionCount : `${shown}/${project.sessionCount}`}
      </span>
      <span className="muted small" title={`Last activity ${formatDateTime(project.lastActivity)}`}>
        {formatRelative(project.lastActivity)}
      </span>
    </button>
  );
});

function indentStyle(depth: number): CSSProperties {
  const left = 22 + Math.min(depth, MAX_INDENT) * INDENT;
  return { paddingLeft: left, ['--indent-left' as string]: `${left}px` };
}

const SessionRow = memo(function SessionRow({
  session,
  summary,
  depth,
  active,
  onOpen,
}: {
  session: SessionRowDto;
  summary: SessionSummaryDto | null;
  depth: number;
  active: boolean;
  onOpen: (sessionId: string) => void;
}) {
  const title = sessionTitle(session, summary);
  const forked = session.parentSessionId !== null || session.parentSessionPath !== null;
  return (
    <div
      className={`session-row${active ? ' active' : ''}${depth > 0 ? ' nested' : ''}`}
      data-testid="session-row"
      data-session-id={session.sessionId}
      data-depth={depth}
      data-parent-session-id={session.parentSessionId ?? undefined}
      style={depth > 0 ? indentStyle(depth) : undefined}
      role="button"
      tabIndex={0}
      aria-current={active ? 'true' : undefined}
      title={`${title}\n${session.path}`}
      onClick={() => onOpen(session.sessionId)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onOpen(session.sessionId);
        }
      }}
    >
      <div className="session-title">
        {forked && (
          <span
            className="fork-marker"
            data-testid="fork-marker"
            title={`Fork of ${session.parentSessionPath ?? session.parentSessionId}${session.parentSessionId ? ' (click to open the parent)' : ''}`}
            onClick={(e) => {
              if (!session.parentSessionId) return;
              e.stopPropagation();
              onOpen(session.parentSessionId);
            }}
          >
            <ForkIcon />
          </span>
        )}
        <span className={summary?.name ? 'named' : undefined}>{title}</span>
        {summary && summary.issueCount > 0 && (
          <span className="damage-marker" data-testid="damage-marker" title={`${summary.issueCount} damaged line${summary.issueCount === 1 ? '' : 's'} or header problem${summary.issueCount === 1 ? '' : 's'}: open the session for details`}>
            !
          </span>
        )}
      </div>
      <div className="session-meta">
        <span title={`Modified ${formatDateTime(session.modifiedAt)}`}>{formatRelative(session.modifiedAt)}</span>
        <span>{formatBytes(session.sizeBytes)}</span>
        <span>{summary ? `${formatCount(summary.entryCount)} entries` : '… entries'}</span>
        <span className="created" title={`Created ${formatDateTime(session.createdAt)}`}>
          {formatShortDate(session.createdAt)}
        </span>
      </div>
    </div>
  );
});
