/**
 * The cross-session search panel (Ctrl/Cmd+Shift+F): hits of the full-text index grouped by
 * session, a page at a time (the next page loads as the list nears its end, or with "Load more");
 * a hit opens its session with the entry focused. Re-asks while the index is being built.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useActions, useCanopy, useServices } from '../../app-context';
import { formatDeepLink, parseSearchLink } from '../../lib/deep-link';
import { groupHits, splitSnippet } from './search-model';
import { moveFocusAmong } from '../../ui/list-keys';
import { useSessionTitle } from '../../ui/use-session-title';
import { useContributedActions } from '../../commands/commands-context';
import { CONTRIBUTED } from '../../commands/registry';
import './search.css';

const DEBOUNCE_MS = 200;
/** The next page loads when the list is scrolled this close to its end. */
const NEAR_END_PX = 300;

export function SearchPanel() {
  const actions = useActions();
  const setMark = useCanopy((s) => s.setMark);
  const hits = useCanopy((s) => s.searchHits);
  const cursor = useCanopy((s) => s.searchCursor);
  const loading = useCanopy((s) => s.searchLoading);
  const answered = useCanopy((s) => s.searchAnswered);
  const stopped = useCanopy((s) => s.searchStopped);
  const error = useCanopy((s) => s.searchError);
  const status = useCanopy((s) => s.searchStatus);
  const [open, setOpen] = useState(false);
  // What is typed; the slice's query follows it after a pause.
  const lastQuery = useCanopy((s) => s.searchQuery);
  const [query, setQuery] = useState(lastQuery);
  const input = useRef<HTMLInputElement>(null);

  // Ctrl/Cmd+Shift+F and the palette reach the panel through the action registry (declared once).
  const contributed = useMemo(
    () => [
      {
        ...CONTRIBUTED.searchSessions,
        run: () => {
          setOpen(true);
          setTimeout(() => input.current?.select(), 0);
        },
      },
    ],
    [],
  );
  useContributedActions(contributed);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // `#/search?q=…` (pi's `/canopy search`) opens the panel with that query; the address then shows
  // the open session again, so the hash route never sees the search link.
  const { store } = useServices();
  useEffect(() => {
    const follow = () => {
      const asked = parseSearchLink(window.location.hash);
      if (asked === null) return;
      setQuery(asked);
      setOpen(true);
      const { openSessionId, selectedEntryId } = store.getState();
      const back = openSessionId ? formatDeepLink({ sessionId: openSessionId, entryId: selectedEntryId }) : '';
      window.history.replaceState(
        window.history.state,
        '',
        `${window.location.pathname}${window.location.search}${back}`,
      );
    };
    follow();
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, [store]);

  useEffect(() => (open ? actions.followSearchStatus() : undefined), [actions, open]);

  // While the index grows, the same query is asked again as progress arrives (a new query stops the old).
  const progressKey = status?.indexing ? Math.floor(status.done / Math.max(1, Math.ceil(status.total / 20))) : -1;
  // (a refresh leaves pages the user already loaded alone).
  const asked = useRef('');
  useEffect(() => {
    if (!open) return;
    const refresh = asked.current === query;
    asked.current = query;
    const timer = setTimeout(() => void actions.search(query, refresh), query.trim() === '' ? 0 : DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [actions, open, query, progressKey]);

  const groups = useMemo(() => groupHits(hits), [hits]);
  if (!open) return null;
  const shown = answered && query.trim() !== '';
  return (
    <div
      className="search-overlay"
      role="dialog"
      aria-label="Search all sessions"
      data-testid="search-panel"
      onClick={() => setOpen(false)}
    >
      <div className="search-panel-box" onClick={(e) => e.stopPropagation()}>
        <input
          ref={input}
          autoFocus
          className="search-input"
          data-testid="search-input"
          placeholder='Search every session: words, "a phrase", re:regex, role: tool: file: project: after: before: branch:active'
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            // ↓ from the box reaches the hits (then ↑/↓ move among them, Enter opens one).
            if (e.key !== 'ArrowDown') return;
            const first = e.currentTarget.parentElement?.querySelector<HTMLElement>('[data-testid="search-hit"]');
            if (!first) return;
            e.preventDefault();
            first.focus();
          }}
        />
        <div className="search-status muted small" data-testid="search-status">
          {error ? (
            <span className="search-error" role="alert">
              {error}
            </span>
          ) : shown ? (
            `${hits.length}${cursor ? '+' : ''} ${hits.length === 1 && !cursor ? 'hit' : 'hits'} in ${groups.length} ${groups.length === 1 ? 'session' : 'sessions'}`
          ) : (
            'Type to search'
          )}
          {loading && <span> · searching…</span>}
          {!error && shown && stopped && <span className="search-error"> · {stopped}</span>}
          {status?.indexing && (
            <span>
              {' '}
              · index being built: {status.done} of {status.total} sessions
            </span>
          )}
          {status?.error && <span className="search-error"> · {status.error}</span>}
        </div>
        <div
          className="search-results"
          data-testid="search-results"
          onScroll={(e) => {
            const el = e.currentTarget;
            if (el.scrollTop + el.clientHeight >= el.scrollHeight - NEAR_END_PX) void actions.searchMore();
          }}
          onKeyDown={(e) => {
            if (moveFocusAmong(e.currentTarget, '[data-testid="search-hit"]', e.key)) e.preventDefault();
          }}
        >
          {(shown ? groups : []).map((g) => (
            <section key={g.sessionId} className="search-group">
              <div className="search-group-title" title={g.cwd}>
                <GroupTitle sessionId={g.sessionId} fallback={g.title} /> <span className="muted small">{g.cwd}</span>
              </div>
              {g.hits.map((h) => {
                const [before, match, after] = splitSnippet(h);
                return (
                  <button
                    key={`${h.entryId ?? 'session'}:${h.line}`}
                    className="search-hit"
                    data-testid="search-hit"
                    data-entry-id={h.entryId ?? ''}
                    onClick={() => {
                      setOpen(false);
                      setMark(h.entryId && match ? { sessionId: h.sessionId, entryId: h.entryId, text: match } : null);
                      void actions.openSession(h.sessionId, { entryId: h.entryId });
                    }}
                  >
                    <span className="search-hit-where muted small">
                      {h.role}
                      {h.field === 'thinking' ? ' (thinking)' : ''} · line {h.line}
                    </span>
                    <span className="search-snippet">
                      {before}
                      <mark>{match}</mark>
                      {after}
                    </span>
                  </button>
                );
              })}
            </section>
          ))}
          {shown && cursor && (
            <button
              type="button"
              className="search-more link-button"
              data-testid="search-more"
              disabled={loading}
              onClick={() => void actions.searchMore()}
            >
              {loading ? 'Loading…' : 'Load more'}
            </button>
          )}
        </div>
      </div>
    </div>
  );
}

/** A hit group is called what the session list calls the session. */
function GroupTitle({ sessionId, fallback }: { sessionId: string; fallback: string }) {
  return <>{useSessionTitle(sessionId, fallback)}</>;
}
