import { useEffect, useMemo, type ReactNode } from 'react';
import { useActions, useCanopy } from '../../app-context';
import { copyText } from '../../lib/clipboard';
import { shareableUrl } from '../../lib/deep-link';
import { resumeCommandIn, type ProfileDto, type SessionGraphDto } from '../../lib/shared';
import { FILTER_LABELS, FILTER_MODES, type FilterMode } from '../../model/filters';
import { countOf, formatBytes } from '../../lib/format';
import { ProgressLine } from '../../ui/ProgressLine';
import { useSessionTitle } from '../../ui/use-session-title';
import type { GraphModel } from './useGraphModel';

const PROFILE_TITLES: Record<ProfileDto, string> = {
  ca: "CA: the coding agent's SessionManager (leaf = last line, full path to the root)",
  h3: 'H3: the harness store (leaf records, paths stop at compaction checkpoints)',
};

/** `extras`: other features' controls at the end of the second row (from the shell). */
export function GraphToolbar({ model, extras }: { model: GraphModel; extras?: ReactNode }) {
  const { graph, hits, view } = model;
  const actions = useActions();
  const filterMode = useCanopy((s) => s.filterMode);
  const setFilterMode = useCanopy((s) => s.setFilterMode);
  const showLeafRecords = useCanopy((s) => s.showLeafRecords);
  const setShowLeafRecords = useCanopy((s) => s.setShowLeafRecords);
  const query = useCanopy((s) => s.graphQuery);
  const setQuery = useCanopy((s) => s.setGraphQuery);
  const searchHit = useCanopy((s) => s.searchHit);
  const setSearchHit = useCanopy((s) => s.setSearchHit);
  const selectedId = useCanopy((s) => s.selectedEntryId);
  const expandedCount = useCanopy((s) => Object.keys(s.expandedChains).length);
  const collapseAll = useCanopy((s) => s.collapseAllChains);
  const showToast = useCanopy((s) => s.showToast);
  const opening = useCanopy((s) => s.opening);
  const requestFit = useCanopy((s) => s.requestFit);
  const requestFocus = useCanopy((s) => s.requestFocus);
  const flagsProgress = useCanopy((s) => s.flagsProgress);
  const flagsPercent =
    flagsProgress && flagsProgress.total > 0 ? Math.floor((100 * flagsProgress.done) / flagsProgress.total) : null;
  // Counted once per graph, not on every render (a 20k-entry session re-renders the toolbar often).
  const leafRecords = useMemo(() => graph.entries.reduce((n, e) => (e.type === 'leaf' ? n + 1 : n), 0), [graph]);

  const jump = (delta: number) => {
    if (hits.length === 0) return;
    const next = (((searchHit < 0 && delta < 0 ? 0 : searchHit + delta) % hits.length) + hits.length) % hits.length;
    setSearchHit(next);
    actions.selectEntry(hits[next]!, { focus: true });
  };

  return (
    <div className="graph-toolbar">
      <SessionTitle graph={graph} />
      <div className="toolbar-row">
        <div className="segmented" role="group" aria-label="Reading profile" data-testid="profile-switch">
          {(['ca', 'h3'] as const).map((p) => (
            <button
              key={p}
              type="button"
              className={graph.profile === p ? 'on' : undefined}
              aria-pressed={graph.profile === p}
              data-profile={p}
              title={`${PROFILE_TITLES[p]}${graph.detectedProfile === p ? ' — detected for this file' : ''}`}
              disabled={opening}
              onClick={() => void actions.setProfile(p === graph.detectedProfile ? null : p)}
            >
              {p.toUpperCase()}
              {graph.detectedProfile === p && <span className="detected-dot" aria-label="detected" />}
            </button>
          ))}
        </div>
        {graph.profile !== graph.detectedProfile && (
          <span
            className="chip warn-chip"
            title={`This file reads as ${graph.detectedProfile.toUpperCase()}; showing it with the ${graph.profile.toUpperCase()} rules`}
          >
            not detected
          </span>
        )}
        <select
          className="compact"
          aria-label="Filter"
          data-testid="filter-mode"
          value={filterMode}
          onChange={(e) => setFilterMode(e.target.value as FilterMode)}
        >
          {FILTER_MODES.map((m) => (
            <option key={m} value={m}>
              {FILTER_LABELS[m]}
              {graph.pending && m !== 'all' ? ' (not ready yet)' : ''}
            </option>
          ))}
        </select>
        {graph.pending && filterMode !== 'all' && (
          <span
            className="chip dim"
            data-testid="filter-not-ready"
            title="Reading the entries' bodies: until then the filter also shows assistant messages without text"
          >
            filter not ready yet{flagsPercent !== null ? ` · ${flagsPercent}%` : ''}
          </span>
        )}
        <label
          className={`toggle${leafRecords === 0 ? ' disabled' : ''}`}
          title="H3 leaf records mark tree navigation; hidden by default"
        >
          <input
            type="checkbox"
            checked={showLeafRecords}
            disabled={leafRecords === 0}
            onChange={(e) => setShowLeafRecords(e.target.checked)}
          />
          leaf records{leafRecords > 0 ? ` (${leafRecords})` : ''}
        </label>
        <span className="grow" />
        <div className="search-box">
          <input
            type="search"
            placeholder="Search entries…"
            aria-label="Search entries"
            data-testid="graph-search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                jump(e.shiftKey ? -1 : 1);
              }
            }}
          />
          {query && (
            <span className="muted small search-count" data-testid="search-count">
              {hits.length === 0 ? 'no hits' : `${searchHit >= 0 ? searchHit + 1 : '–'}/${hits.length}`}
            </span>
          )}
          <button
            type="button"
            className="icon-button"
            aria-label="Previous hit"
            disabled={hits.length === 0}
            onClick={() => jump(-1)}
          >
            ↑
          </button>
          <button
            type="button"
            className="icon-button"
            aria-label="Next hit"
            disabled={hits.length === 0}
            onClick={() => jump(1)}
          >
            ↓
          </button>
        </div>
      </div>
      {graph.pending && (
        <ProgressLine
          label="Reading the entries' bodies for the filters…"
          progress={flagsProgress}
          format={formatBytes}
          testId="flags-progress"
          subtle
        />
      )}
      <div className="toolbar-row secondary">
        <span className="muted small" data-testid="graph-stats">
          {countOf(view.stats.entries, 'entry', 'entries')} · {view.stats.drawn.toLocaleString('en-US')} drawn
          {view.stats.hidden > 0 ? ` · ${view.stats.hidden.toLocaleString('en-US')} hidden by filter` : ''}
        </span>
        <span className="grow" />
        {expandedCount > 0 && (
          <button type="button" className="link-button" onClick={collapseAll}>
            collapse chains
          </button>
        )}
        <button
          type="button"
          className="link-button"
          data-testid="zoom-to-leaf"
          disabled={!graph.leafId}
          onClick={() => graph.leafId && requestFocus(graph.leafId)}
        >
          zoom to leaf
        </button>
        <button type="button" className="link-button" onClick={() => requestFit()}>
          fit
        </button>
        <button
          type="button"
          className="link-button"
          data-testid="copy-link"
          onClick={() => {
            const url = shareableUrl(window.location, { sessionId: graph.sessionId, entryId: selectedId });
            void copyText(url).then((ok) => showToast(ok ? 'Link copied' : `Copy failed — ${url}`));
          }}
        >
          copy link
        </button>
        <button
          type="button"
          className="link-button"
          data-testid="resume-in-pi"
          title={`Copy: ${resumeCommandIn(graph.cwd, graph.path)}`}
          onClick={() => {
            const command = resumeCommandIn(graph.cwd, graph.path);
            void copyText(command).then((ok) => showToast(ok ? 'Resume command copied' : `Copy failed — ${command}`));
          }}
        >
          resume in pi
        </button>
        {extras}
      </div>
    </div>
  );
}

function SessionTitle({ graph }: { graph: SessionGraphDto }) {
  const summary = useCanopy((s) => s.summaries[graph.sessionId]);
  const firstUser = useMemo(
    () => graph.entries.find((e) => e.type === 'message' && e.role === 'user')?.preview,
    [graph],
  );
  const title = useSessionTitle(
    graph.sessionId,
    graph.sessionName || summary?.firstMessage || firstUser || graph.sessionId,
  );
  // The window's (or browser tab's) title names the open session the way the list does.
  useEffect(() => {
    document.title = `${title} — Canopy`;
    return () => {
      document.title = 'Canopy';
    };
  }, [title]);
  return (
    <div className="session-heading">
      <h1 title={title} data-testid="session-title">
        {title}
      </h1>
      <span className="muted small" title={graph.path}>
        {graph.cwd}
      </span>
    </div>
  );
}
