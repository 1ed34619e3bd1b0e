/**
 * "Compare with…" (Ctrl/Cmd+Shift+D, the palette): pick two leaves — the selected entry, the
 * current leaf, a branch tip, or a session of the family at its leaf — with ↑/↓, `a`, `b` and Enter
 * (ComparePicker), then read the two branches side by side (CompareView). Escape closes. Main's
 * answer lives in the store (`comparison`); the picks are this panel's.
 */
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useActions, useCanopy } from '../../app-context';
import { useContributedActions } from '../../commands/commands-context';
import { CONTRIBUTED } from '../../commands/registry';
import { candidatesOf, type Candidate } from './compare-model';
import { ComparePicker } from './ComparePicker';
import { useComparePicks } from './use-compare-picks';
import { useModalFocus } from './use-modal-focus';
import { branchLabel, branchText } from '../../model/branch-label';
import { sessionLabel } from '../../model/session-title';
import { treeIndexOf } from '../../model/tree-index';
import './compare.css';

// The view and its diff library load on the first comparison, not with the app.
const CompareView = lazy(() => import('./CompareView').then((m) => ({ default: m.CompareView })));

export function ComparePanel() {
  const actions = useActions();
  const graph = useCanopy((s) => s.graph);
  const sessionRows = useCanopy((s) => s.sessionList?.sessions);
  const summaries = useCanopy((s) => s.summaries);
  const selectedId = useCanopy((s) => s.selectedEntryId);
  // The picker's other sessions: the open session's family, read when it opened.
  const lineage = useCanopy((s) => s.lineage);
  const result = useCanopy((s) => s.comparison.result);
  const [open, setOpen] = useState(false);
  const listbox = useRef<HTMLDivElement>(null);
  const box = useRef<HTMLDivElement>(null);

  const contributed = useMemo(
    () => [{ ...CONTRIBUTED.compareWith, enabled: () => graph !== null, run: () => setOpen(true) }],
    [graph],
  );
  useContributedActions(contributed);

  const candidates = useMemo(
    () =>
      graph
        ? candidatesOf(graph.sessionId, graph.entries, graph.leafId, selectedId, lineage, {
            tip: (id) => branchText(branchLabel(treeIndexOf(graph), id)),
            session: (id) => {
              const row = sessionRows?.find((r) => r.sessionId === id);
              return row ? sessionLabel(row, summaries[id] ?? row.summary) : null;
            },
          })
        : ([] as Candidate[]),
    [graph, selectedId, lineage, sessionRows, summaries],
  );
  const picks = useComparePicks(open, candidates);
  useEffect(() => {
    if (!open) return;
    actions.clearComparison();
    requestAnimationFrame(() => listbox.current?.focus());
  }, [actions, open]);
  useModalFocus(box, '[data-testid="compare-view"], [data-testid="compare-candidates"]', open);

  if (!open || !graph) return null;
  const close = () => {
    // What was side A stays side A next time: pick A, close, select another node, open — it is B.
    picks.keepA(picks.a);
    setOpen(false);
  };

  /** An entry of the view, shown in the graph: its session opens first when it is another of the family. */
  const openEntry = (entryId: string, sessionId: string | undefined) => {
    close();
    if (!sessionId || sessionId === graph.sessionId) actions.selectEntry(entryId, { focus: true });
    else void actions.openSession(sessionId, { entryId });
  };

  const compare = (pa: Candidate | null, pb: Candidate | null) => {
    if (!pa || !pb) return;
    picks.keepA(pa);
    const side = (c: Candidate) => ({ sessionId: c.sessionId, ...(c.leafId ? { leafId: c.leafId } : {}) });
    void actions.compare(side(pa), side(pb));
  };

  return (
    <div
      className="overlay-backdrop compare-overlay"
      role="dialog"
      aria-label="Compare two branches"
      data-testid="compare-panel"
      onClick={close}
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.preventDefault();
        close();
      }}
    >
      <div className="compare-box" ref={box} onClick={(e) => e.stopPropagation()}>
        {result ? (
          <Suspense fallback={<div className="compare-loading muted">Loading the comparison…</div>}>
            <CompareView
              data={result}
              onOpen={(sessionId, entryId) => openEntry(entryId, sessionId)}
              onBack={() => {
                actions.clearComparison();
                requestAnimationFrame(() => listbox.current?.focus());
              }}
            />
          </Suspense>
        ) : (
          <ComparePicker picks={picks} listbox={listbox} onCompare={compare} />
        )}
      </div>
    </div>
  );
}
