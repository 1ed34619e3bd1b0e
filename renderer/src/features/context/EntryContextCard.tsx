import { useMemo } from 'react';
import { useActions, useCanopy } from '../../app-context';
import { formatTokens } from '../../lib/format';
import { EntryLink } from '../../ui/EntryLink';
import { treeIndexOf } from '../../model/tree-index';
import { messagesByEntry, STATE_HINTS, STATE_LABELS, statesById } from '../../model/context-order';
import { WhatIfButton } from './WhatIfButton';

/** The selected entry's part in the context: its state, why, and what it sends. */
export function EntryContextCard({ entryId }: { entryId: string }) {
  const actions = useActions();
  const view = useCanopy((s) => s.contextView);
  const loading = useCanopy((s) => s.contextLoading);
  const whatIf = useCanopy((s) => s.whatIfLeaf?.entryId ?? null);
  const graph = useCanopy((s) => s.graph);
  const states = useMemo(
    () => (view ? statesById(view, graph && graph.sessionId === view.sessionId ? treeIndexOf(graph) : null) : null),
    [view, graph],
  );
  const sends = useMemo(() => (view ? (messagesByEntry(view).get(entryId) ?? []) : []), [view, entryId]);
  const info = states?.get(entryId);

  if (!view || !info) {
    return (
      <div className="context-card muted small">{loading ? 'Reading the context…' : 'Context state unavailable.'}</div>
    );
  }
  const tokens = sends.reduce((n, m) => n + m.tokens, 0);
  return (
    <section
      className={`context-card ctx-card-${info.state}`}
      data-testid="entry-context-state"
      data-state={info.state}
    >
      <div className="context-card-head">
        <span className={`state-pill state-${info.state}`} title={STATE_HINTS[info.state]}>
          {STATE_LABELS[info.state]}
        </span>
        <span className="muted small">
          {whatIf ? (
            <>
              at the what-if leaf <EntryLink id={whatIf} />
            </>
          ) : (
            'at the current leaf'
          )}
        </span>
        <span className="grow" />
        {sends.length > 0 && (
          <span className="muted small" title="pi's chars/4 estimate of what this entry sends">
            {sends.length > 1 ? `${sends.length} msgs · ` : ''}≈ {formatTokens(tokens)}
          </span>
        )}
      </div>
      <div className="context-reason" data-testid="context-reason">
        {info.reason}
        {info.by && (
          <>
            {' '}
            <span className="muted">— by</span> <EntryLink id={info.by} />
          </>
        )}
        {info.targetId && (
          <>
            {' '}
            <span className="muted">— edits</span> <EntryLink id={info.targetId} />
          </>
        )}
      </div>
      <div className="context-card-actions">
        {whatIf === entryId ? (
          <button
            type="button"
            className="action-button"
            data-testid="what-if-reset-entry"
            onClick={() => void actions.setWhatIfLeaf(null)}
          >
            Back to the current leaf
          </button>
        ) : (
          <WhatIfButton entryId={entryId} />
        )}
      </div>
    </section>
  );
}
