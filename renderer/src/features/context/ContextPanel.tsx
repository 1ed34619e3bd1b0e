import { useActions, useCanopy } from '../../app-context';
import { formatCount, formatTokens } from '../../lib/format';
import { InfoIcon } from '../../lib/icons';
import type { ContextViewDto, SessionGraphDto } from '../../lib/shared';
import { EntryLink } from '../../ui/EntryLink';
import { ContextEntries } from './ContextEntries';
import { CostLedgers, LastUsage } from './CostLedgers';
import { DerivedState } from './DerivedState';

/** "What the model sees" at the current leaf or at a what-if leaf. */
export function ContextPanel() {
  const graph = useCanopy((s) => s.graph);
  const view = useCanopy((s) => s.contextView);
  const loading = useCanopy((s) => s.contextLoading);
  const error = useCanopy((s) => s.contextError);

  if (!graph) {
    return (
      <div className="context-panel">
        <div className="placeholder small-placeholder muted">Open a session to see what pi sends to the model.</div>
      </div>
    );
  }
  if (!view || view.sessionId !== graph.sessionId) {
    return (
      <div className="context-panel" aria-busy={loading}>
        {error ? (
          <div className="error-note" role="alert">
            Cannot build the context: {error.message}
          </div>
        ) : (
          <div className="muted small pad">Reading the context…</div>
        )}
      </div>
    );
  }
  return <ContextBody view={view} graph={graph} loading={loading} />;
}

function ContextBody({ view, graph, loading }: { view: ContextViewDto; graph: SessionGraphDto; loading: boolean }) {
  const ids = view.contextEntryIds;
  const error = useCanopy((s) => s.contextError);
  return (
    <div
      className="context-panel"
      data-testid="context-panel"
      data-leaf-id={view.leafId ?? ''}
      data-profile={view.profile}
      aria-busy={loading}
    >
      <ContextHead view={view} graph={graph} entryCount={ids.length} />
      {error && (
        <div className="error-note" role="alert">
          Refresh failed: {error.message}
        </div>
      )}
      <p className="extensions-note" data-testid="extensions-note">
        <InfoIcon /> Extensions can still rewrite a request before it is sent (context hooks, system-prompt and tool
        changes). Canopy shows what the file determines.
      </p>
      <DerivedState view={view} />
      <ContextEntries view={view} ids={ids} graph={graph} />
      <section className="ctx-section" data-testid="usage-section">
        <h3>Usage and cost</h3>
        <LastUsage view={view} />
        <CostLedgers view={view} />
      </section>
      {view.compactions.length > 0 && <Compactions view={view} />}
      {view.issues.length > 0 && (
        <details className="ctx-section issues-mini">
          <summary>
            {view.issues.length} reading issue{view.issues.length === 1 ? '' : 's'}
          </summary>
          <ul>
            {view.issues.slice(0, 50).map((i, k) => (
              <li key={k}>
                <span className="issue-line">line {i.line}</span> {i.message}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

function ContextHead({
  view,
  graph,
  entryCount,
}: {
  view: ContextViewDto;
  graph: SessionGraphDto;
  entryCount: number;
}) {
  const actions = useActions();
  const whatIf = useCanopy((s) => s.whatIfLeaf?.entryId ?? null);
  const ct = view.contextTokens;
  return (
    <header className="context-head">
      <div className="context-leaf" data-testid="context-leaf">
        {whatIf ? (
          <>
            <span className="chip what-if-chip">what if</span>
            <span>
              leaf = <EntryLink id={whatIf} />
            </span>
            <button
              type="button"
              className="link-button"
              data-testid="what-if-reset"
              title="Back to the current leaf"
              onClick={() => void actions.setWhatIfLeaf(null)}
            >
              reset
            </button>
          </>
        ) : view.leafId ? (
          <>
            <span className="muted">At the current leaf</span> <EntryLink id={view.leafId} />
          </>
        ) : (
          <span className="muted">No leaf: the model gets an empty context.</span>
        )}
        <span className="grow" />
        <span
          className="chip"
          title={`Read with the ${view.profile.toUpperCase()} rules${view.profile !== graph.detectedProfile ? ' (not the detected profile)' : ''}`}
        >
          {view.profile.toUpperCase()} rules
        </span>
      </div>
      <div className="context-totals">
        <div
          className="big-number"
          data-testid="context-total"
          title="pi's estimate (chars/4, images 1,200) over the messages below"
        >
          ≈ {formatCount(view.tokens.total)} <span className="unit">tokens</span>
        </div>
        <div className="muted small">
          {formatCount(view.messages.length)} message{view.messages.length === 1 ? '' : 's'} from{' '}
          {formatCount(entryCount)} context entr
          {entryCount === 1 ? 'y' : 'ies'}
          {view.tokens.system > 0 && <> · system prompt {formatTokens(view.tokens.system)}</>}
        </div>
        <div className="muted small" data-testid="context-size" title="What pi itself would report as the context size">
          pi reports {formatTokens(ct.tokens)}
          {ct.method === 'usage' ? (
            <>
              {' '}
              (last usage {formatTokens(ct.usageTokens)} + {formatTokens(ct.trailingTokens)} after it)
            </>
          ) : (
            ' (estimate: no usable usage record)'
          )}
        </div>
      </div>
    </header>
  );
}

function Compactions({ view }: { view: ContextViewDto }) {
  const actions = useActions();
  const setHighlight = useCanopy((s) => s.setHighlight);
  return (
    <section className="ctx-section" data-testid="context-compactions">
      <h3>Compactions on this path</h3>
      <ol className="compaction-list">
        {view.compactions.map((c) => (
          <li key={c.id}>
            <button
              type="button"
              className="entry-row"
              onClick={() => actions.selectEntry(c.id, { focus: true })}
              title="Inspect this compaction"
            >
              <span className={`state-pill ${c.active ? 'state-included' : `state-${c.state}`}`}>
                {c.active ? 'active' : 'older'}
              </span>
              <code>{c.id}</code>
              <span className="muted small ellipsis">
                {c.tokensBefore !== null ? `${formatTokens(c.tokensBefore)} before · ` : ''}
                {formatCount(c.hiddenIds.length)} hidden
              </span>
            </button>
            {c.hiddenIds.length > 0 && (
              <button type="button" className="link-button" onClick={() => setHighlight(c.hiddenIds, `hidden:${c.id}`)}>
                highlight
              </button>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
