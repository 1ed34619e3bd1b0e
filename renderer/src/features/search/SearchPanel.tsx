/**
 * The cross-session search panel (Ctrl/Cmd+Shift+F): hits of the full-text index grouped by
 * session; a hit opens its session with the entry focused. Re-asks while the index is being built.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useActions, useCanopy, useServices } from '../../app-context';
import type { SearchResultDto, SearchStatusDto } from '../../lib/shared';
import { groupHits, splitSnippet } from './search-model';
import { moveFocusAmong } from '../../ui/list-keys';
import { useSessionTitle } from '../../ui/use-session-title';
import { useContributedActions } from '../../commands/commands-context';
import { CONTRIBUTED } from '../../commands/registry';
import './search.css';

const DEBOUNCE_MS = 200;

export function SearchPanel() {
  const { api } = useServices();
  const actions = useActions();
  const setMark = useCanopy((s) => s.setMark);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [result, setResult] = useState<SearchResultDto | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<SearchStatusDto | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const asked = useRef(0);

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

  useEffect(() => api.on('search.progress', setStatus), [api]);

  // While the index grows, the same query is asked again as progress arrives.
  const progressKey = status?.indexing ? Math.floor(status.done / Math.max(1, Math.ceil(status.total / 20))) : -1;
  useEffect(() => {
    if (!open || query.trim() === '') {
      setResult(null);
      setError(null);
      return;
    }
    const seq = ++asked.current;
    const timer = setTimeout(() => {
      void api['search.query']({ query, limit: 200 }).then((r) => {
        if (seq !== asked.current) return;
        if (r.ok) {
          setResult(r.data);
          setStatus(r.data.status);
          setError(null);
        } else setError(r.error.message);
      });
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [api, open, query, progressKey]);

  const loadMore = () => {
    if (!result?.cursor) return;
    const seq = ++asked.current;
    void api['search.query']({ query, limit: 200, cursor: result.cursor }).then((r) => {
      if (seq !== asked.current) return;
      if (r.ok) setResult({ ...r.data, hits: [...result.hits, ...r.data.hits] });
      else setError(r.error.message);
    });
  };

  if (!open) return null;
  const groups = result ? groupHits(result.hits) : [];
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
          ) : result ? (
            `${result.hits.length}${result.cursor ? '+' : ''} ${result.hits.length === 1 && !result.cursor ? 'hit' : 'hits'} in ${groups.length} ${groups.length === 1 ? 'session' : 'sessions'}`
          ) : (
            'Type to search'
          )}
          {!error && result?.stopped && <span> · {result.stopped}</span>}
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
          onKeyDown={(e) => {
            if (moveFocusAmong(e.currentTarget, '[data-testid="search-hit"]', e.key)) e.preventDefault();
          }}
        >
          {groups.map((g) => (
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
          {result?.cursor && (
            <button type="button" className="link-button" data-testid="search-more" onClick={loadMore}>
              Load more
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
