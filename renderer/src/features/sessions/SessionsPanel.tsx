import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { useActions, useCanopy } from '../../app-context';
import { formatCount } from '../../lib/format';
import { ProgressLine } from '../../ui/ProgressLine';
import { SESSION_SORTS, type SessionSort } from '../../store/sessions-slice';
import { listKeyMove } from '../../ui/list-keys';
import { filterKeyMove, hasMatchLine, sidebarRowsWhileTyping, type SidebarRow } from './rows';
import { ProjectRow, SessionRow } from './SessionRows';
import { SearchIndexProgress } from './SearchIndexProgress';
import { OnlyChoice } from './OnlyChoice';
import { spendBySession, type SessionSpend } from '../../model/session-spend';

const SORT_LABELS: Record<SessionSort, string> = {
  modified: 'Modified',
  activity: 'Last activity',
  created: 'Created',
  name: 'Name',
  size: 'Size',
  entries: 'Entries',
  cost: 'Cost',
};

const PROJECT_ROW = 34;
const SESSION_ROW = 52;
/** A session row with a line for a match outside its title. */
const MATCH_ROW = 68;

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
  const group = useCanopy((s) => s.groupByProject);
  const setGroup = useCanopy((s) => s.setGroupByProject);
  const keep = useCanopy((s) => s.keep);
  const only = useCanopy((s) => s.sessionOnly);
  const rootNotes = useCanopy((s) => s.appInfo?.rootNotes);

  // Cost and model come from the store report (a background pass): asked for only when used.
  const wantSpend = sort === 'cost' || only === 'models' || only.startsWith('model:');
  useEffect(() => (wantSpend ? actions.followStoreReport() : undefined), [actions, wantSpend]);
  const report = useCanopy((s) => s.storeReport);
  const spend = useMemo(() => (report ? spendBySession(report.usage) : null), [report]);
  const build = useMemo(() => sidebarRowsWhileTyping(), []);
  const rows = useMemo(
    () => build(list, summaries, { query, sort, group, collapsed, keep, only, spend }),
    [build, list, summaries, query, sort, group, collapsed, keep, only, spend],
  );
  const total = list?.sessions.length ?? 0;
  const shown = rows.reduce((n, r) => (r.kind === 'session' ? n + 1 : n), 0);
  /** The list's handler for keys typed in the filter box (↓/↑ move through the results, Enter opens). */
  const filterKeys = useRef<FilterKeys | null>(null);

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
          data-testid="session-sort"
          value={sort}
          onChange={(e) => setSort(SESSION_SORTS.find((k) => k === e.target.value) ?? 'modified')}
        >
          {SESSION_SORTS.map((k) => (
            <option key={k} value={k}>
              {SORT_LABELS[k]}
            </option>
          ))}
        </select>
        <button
          type="button"
          className={`icon-button${group ? ' on' : ''}`}
          aria-pressed={group}
          data-testid="group-by-project"
          title={
            group
              ? 'Grouped by project: click for one list across projects'
              : 'One list across projects: click to group by project'
          }
          aria-label="Group by project"
          onClick={() => setGroup(!group)}
        >
          ▤
        </button>
        <button
          type="button"
          className="icon-button"
          title="Rescan session folders"
          aria-label="Refresh"
          onClick={() => void actions.loadSessions({ refresh: true })}
        >
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
          onKeyDown={(e) => filterKeys.current?.(e)}
        />
        <OnlyChoice spend={spend} />
      </div>
      {listing && (
        <ProgressLine
          label="Listing sessions…"
          progress={listProgress}
          format={formatCount}
          testId="listing-progress"
        />
      )}
      {!listing && summaryFill && (
        <ProgressLine
          label="Reading session names…"
          progress={summaryFill}
          format={formatCount}
          testId="summary-progress"
          subtle
        />
      )}
      {report && report.state === 'running' && (
        <div className="root-note muted small" data-testid="spend-progress">
          Reading costs and models… {Math.round((100 * report.done) / Math.max(1, report.total))}%
        </div>
      )}
      {rootNotes?.map((note) => (
        <div key={note} className="root-note muted small" data-testid="root-note">
          {note}
        </div>
      ))}
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
      <SessionList
        rows={rows}
        initialHeight={initialHeight}
        flat={!group}
        keysRef={filterKeys}
        query={query}
        costs={sort === 'cost' ? spend : null}
      />
      {list && rows.length === 0 && !listing && (
        <div className="empty-note">{query ? 'No session matches the filter.' : 'No sessions found.'}</div>
      )}
      <SearchIndexProgress />
    </section>
  );
}

type FilterKeys = (e: KeyboardEvent<HTMLInputElement>) => void;

function SessionList({
  rows,
  initialHeight,
  flat,
  keysRef,
  query,
  costs,
}: {
  rows: SidebarRow[];
  /** Shown on each row when sorted by cost. */
  costs: Readonly<Record<string, SessionSpend>> | null;
  initialHeight: number;
  flat: boolean;
  keysRef: RefObject<FilterKeys | null>;
  query: string;
}) {
  const actions = useActions();
  const openId = useCanopy((s) => s.openSessionId);
  const toggleProject = useCanopy((s) => s.toggleProject);
  const parentRef = useRef<HTMLDivElement>(null);
  /** The keyboard cursor, by row key (it survives re-sorting and refreshes). */
  const [cursorKey, setCursorKey] = useState<string | null>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => parentRef.current,
    estimateSize: (i) => (rows[i]?.kind === 'project' ? PROJECT_ROW : hasMatchLine(rows[i]!) ? MATCH_ROW : SESSION_ROW),
    getItemKey: (i) => rows[i]?.key ?? i,
    overscan: 8,
    initialRect: { width: 280, height: initialHeight },
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? -1;

  // Bring the open session into view (deep links, "open parent" on a fork marker, a new fork) once per
  // session opened: when it opens, or when its row first appears (a fork may open before its row is in
  // the list); later list refreshes leave the scroll alone.
  const scrolledFor = useRef<string | null>(null);
  useEffect(() => {
    if (!openId) scrolledFor.current = null;
    if (!openId || scrolledFor.current === openId) return;
    const at = rows.findIndex((r) => r.kind === 'session' && r.session.sessionId === openId);
    if (at < 0) return;
    scrolledFor.current = openId;
    virtualizer.scrollToIndex(at, { align: 'auto' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [openId, rows]);

  // Summaries for what is on screen (and the overscan), asked in batches.
  useEffect(() => {
    const ids: string[] = [];
    for (let i = first; i <= last; i++) {
      const row = rows[i];
      if (row?.kind === 'session' && !row.summary) ids.push(row.session.sessionId);
    }
    if (ids.length > 0) actions.requestSummaries(ids);
  }, [first, last, rows, actions]);

  const cursorAt = (() => {
    const byKey = cursorKey === null ? -1 : rows.findIndex((r) => r.key === cursorKey);
    if (byKey >= 0) return byKey;
    return rows.findIndex((r) => r.kind === 'session' && r.session.sessionId === openId);
  })();
  const moveTo = (index: number) => {
    const row = rows[index];
    if (!row) return;
    setCursorKey(row.key);
    virtualizer.scrollToIndex(index, { align: 'auto' });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const row = rows[cursorAt];
    if (e.key === 'Enter' || e.key === ' ') {
      if (!row) return;
      e.preventDefault();
      if (row.kind === 'project') toggleProject(row.project.cwd);
      else void actions.openSession(row.session.sessionId);
      return;
    }
    if (
      row?.kind === 'project' &&
      ((e.key === 'ArrowLeft' && !row.collapsed) || (e.key === 'ArrowRight' && row.collapsed))
    ) {
      e.preventDefault();
      toggleProject(row.project.cwd);
      return;
    }
    const next = listKeyMove(
      e.key,
      cursorAt,
      rows.length,
      Math.max(1, Math.floor((parentRef.current?.clientHeight ?? initialHeight) / SESSION_ROW)),
    );
    if (next === null) return;
    e.preventDefault();
    moveTo(next);
  };
  const cursorRow = rows[cursorAt];

  // Typing a filter puts the cursor on the first result (Enter opens it, as in pi's /resume). Set while
  // rendering, not in an effect, so a ↓ typed right after the last letter moves from there.
  const [cursorQuery, setCursorQuery] = useState(query);
  if (cursorQuery !== query) {
    setCursorQuery(query);
    const firstRow = rows.find((r) => r.kind === 'session');
    if (query && firstRow) setCursorKey(firstRow.key);
  }
  useEffect(() => {
    if (query)
      virtualizer.scrollToIndex(
        Math.max(
          0,
          rows.findIndex((r) => r.kind === 'session'),
        ),
        { align: 'auto' },
      );
    // Only when the query changes, not when summaries fill in.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query]);
  useEffect(() => {
    keysRef.current = (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
      if (e.key === 'Enter') {
        const row = cursorRow?.kind === 'session' ? cursorRow : rows.find((r) => r.kind === 'session');
        if (row?.kind !== 'session') return;
        e.preventDefault();
        void actions.openSession(row.session.sessionId);
        return;
      }
      if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'PageDown' && e.key !== 'PageUp') return;
      const page = Math.max(1, Math.floor((parentRef.current?.clientHeight ?? initialHeight) / SESSION_ROW));
      const next = filterKeyMove(rows, cursorAt, e.key, page);
      if (next === null) return;
      e.preventDefault();
      moveTo(next);
    };
  });

  return (
    <div
      className="session-scroll"
      ref={parentRef}
      data-testid="session-list"
      role="listbox"
      aria-label="Sessions (arrows move, Enter opens)"
      tabIndex={0}
      aria-activedescendant={cursorRow ? rowDomId(cursorRow.key) : undefined}
      onKeyDown={onKeyDown}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {items.map((item) => {
          const row = rows[item.index]!;
          return (
            <div
              key={item.key}
              id={rowDomId(row.key)}
              role="option"
              aria-selected={item.index === cursorAt}
              className={`virtual-row${item.index === cursorAt ? ' cursor' : ''}`}
              style={{ transform: `translateY(${item.start}px)`, height: item.size }}
              onMouseDown={() => setCursorKey(row.key)}
            >
              {row.kind === 'project' ? (
                <ProjectRow
                  project={row.project}
                  shown={row.shown}
                  collapsed={row.collapsed}
                  onToggle={toggleProject}
                />
              ) : (
                <SessionRow
                  session={row.session}
                  summary={row.summary}
                  depth={row.depth}
                  active={row.session.sessionId === openId}
                  showCwd={flat}
                  hit={row.hit}
                  query={query}
                  cost={costs?.[row.session.sessionId]?.cost}
                  keep={row.keep}
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

/** A DOM id for a row key (keys hold paths and ids: keep only safe characters). */
function rowDomId(key: string): string {
  return `session-row-${key.replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`)}`;
}
