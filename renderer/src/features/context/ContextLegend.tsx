import { useActions, useCanopy } from '../../app-context';
import { formatCount } from '../../lib/format';
import { EntryLink } from '../../ui/EntryLink';
import { STATE_HINTS, STATE_LABELS, STATE_ORDER } from '../../model/context-order';

/** Under the graph toolbar: what the shading means, how many entries are in each state, the what-if leaf. */
export function ContextLegend() {
  const actions = useActions();
  const view = useCanopy((s) => s.contextView);
  const loading = useCanopy((s) => s.contextLoading);
  const shade = useCanopy((s) => s.shadeContext);
  const setShade = useCanopy((s) => s.setShadeContext);
  const whatIf = useCanopy((s) => s.whatIfLeaf?.entryId ?? null);
  const highlight = useCanopy((s) => s.highlight);
  const setHighlight = useCanopy((s) => s.setHighlight);
  const setTab = useCanopy((s) => s.setRightTab);
  return (
    <div className="context-legend" data-testid="context-legend" aria-busy={loading}>
      <label className="toggle" title="Shade every entry by whether pi sends it to the model">
        <input type="checkbox" checked={shade} onChange={(e) => setShade(e.target.checked)} />
        context
      </label>
      {shade &&
        view &&
        STATE_ORDER.filter((s) => view.counts[s] > 0).map((s) => (
          <span key={s} className="legend-item" data-state={s} title={STATE_HINTS[s]}>
            <span className={`swatch ctx-swatch-${s}`} aria-hidden />
            {STATE_LABELS[s]} <span className="muted">{formatCount(view.counts[s])}</span>
          </span>
        ))}
      <span className="grow" />
      {highlight && (
        <span className="chip highlight-chip" data-testid="highlight-chip">
          {formatCount(highlight.ids.length)} highlighted
          <button type="button" className="chip-x" aria-label="Clear the highlight" onClick={() => setHighlight(null)}>
            ✕
          </button>
        </span>
      )}
      {whatIf && (
        <span className="chip what-if-chip wide" data-testid="what-if-chip">
          <button
            type="button"
            className="chip-text"
            onClick={() => setTab('context')}
            title="Show the context at the what-if leaf"
          >
            what if leaf =
          </button>
          <EntryLink id={whatIf} />
          <button
            type="button"
            className="chip-x"
            aria-label="Back to the current leaf"
            title="Back to the current leaf"
            onClick={() => void actions.setWhatIfLeaf(null)}
          >
            ✕
          </button>
        </span>
      )}
    </div>
  );
}
