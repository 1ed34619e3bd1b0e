/**
 * "Compare with…" (Ctrl/Cmd+Shift+D, the palette): pick two leaves — the selected entry, the
 * current leaf, a branch tip, or a session of the family at its leaf — with ↑/↓, `a`, `b` and Enter,
 * then read the two branches side by side (CompareView). Escape closes.
 */
import { lazy, Suspense, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useActions, useCanopy } from '../../app-context';
import { useContributedActions } from '../../commands/commands-context';
import { CONTRIBUTED } from '../../commands/registry';
import type { CompareDto, LineageDto } from '../../lib/shared';
import { candidatesOf, openingPicks, type Candidate } from './compare-model';
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
  const [open, setOpen] = useState(false);
  const [lineage, setLineage] = useState<LineageDto | null>(null);
  const [cursor, setCursor] = useState(0);
  const [a, setA] = useState<Candidate | null>(null);
  // Side A of the last comparison asked for (kept while the picker is closed).
  const [lastA, setLastA] = useState<Candidate | null>(null);
  const [list, setList] = useState<Candidate[]>([]);
  const [b, setB] = useState<Candidate | null>(null);
  const [result, setResult] = useState<CompareDto | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const listbox = useRef<HTMLDivElement>(null);

  const contributed = useMemo(
    () => [{ ...CONTRIBUTED.compareWith, enabled: () => graph !== null, run: () => setOpen(true) }],
    [graph],
  );
  useContributedActions(contributed);

  const sessionId = graph?.sessionId ?? null;
  useEffect(() => {
    if (!open || !sessionId) return;
    let live = true;
    void actions.lineage(sessionId).then((l) => live && setLineage(l));
    return () => {
      live = false;
    };
  }, [actions, open, sessionId]);

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

  // Each time the picker opens (openingPicks); candidates that arrive later (the family) are added.
  useEffect(() => {
    if (!open) return;
    const picks = openingPicks(candidates, lastA);
    setResult(null);
    setError(null);
    setList(picks.list);
    setA(picks.a);
    setB(picks.b);
    setCursor(picks.cursor);
    requestAnimationFrame(() => listbox.current?.focus());
    // Only on opening: a later change of the candidates keeps the picks.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);
  useEffect(() => {
    if (open) setList((l) => [...l, ...candidates.filter((c) => !l.some((x) => x.key === c.key))]);
  }, [open, candidates]);

  // A modal: focus that leaves it (the graph focusing the node it was asked to, a late restore, a
  // focused element removed) comes back to the picker or the view.
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const refocus = () =>
      box.current
        ?.querySelector<HTMLElement>('[data-testid="compare-view"], [data-testid="compare-candidates"]')
        ?.focus();
    const outside = (t: EventTarget | null) => !(t instanceof Node && box.current?.contains(t));
    const onFocusIn = (e: FocusEvent) => {
      if (outside(e.target)) refocus();
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onFocusOut = (e: FocusEvent) => {
      if (e.relatedTarget !== null) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (!document.activeElement || document.activeElement === document.body) refocus();
      }, 0);
    };
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('focusout', onFocusOut);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('focusout', onFocusOut);
    };
  }, [open]);

  useEffect(() => {
    listbox.current?.querySelector(`[data-index="${cursor}"]`)?.scrollIntoView?.({ block: 'nearest' });
  }, [cursor]);

  if (!open || !graph) return null;
  const close = () => {
    // What was side A stays side A next time: pick A, close, select another node, open — it is B.
    setLastA(a);
    setOpen(false);
  };

  /** An entry of the view, shown in the graph: its session opens first when it is another of the family. */
  const openEntry = (entryId: string, sessionId: string | undefined) => {
    close();
    if (!sessionId || sessionId === graph.sessionId) actions.selectEntry(entryId, { focus: true });
    else void actions.openSession(sessionId, { entryId });
  };

  const compare = (pa: Candidate | null, pb: Candidate | null) => {
    if (!pa || !pb || busy) return;
    setLastA(pa);
    setBusy(true);
    setError(null);
    const side = (c: Candidate) => ({ sessionId: c.sessionId, ...(c.leafId ? { leafId: c.leafId } : {}) });
    void actions.compare(side(pa), side(pb)).then((r) => {
      setBusy(false);
      if ('data' in r) setResult(r.data);
      else setError(r.error.message);
    });
  };

  const onPickerKey = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const here = list[cursor] ?? null;
    switch (e.key) {
      case 'ArrowDown':
        setCursor((c) => Math.min(list.length - 1, c + 1));
        break;
      case 'ArrowUp':
        setCursor((c) => Math.max(0, c - 1));
        break;
      case 'Home':
        setCursor(0);
        break;
      case 'End':
        setCursor(Math.max(0, list.length - 1));
        break;
      case 'a':
        setA(here);
        break;
      case 'b':
        setB(here);
        break;
      case 's':
        setA(b);
        setB(a);
        break;
      case 'Enter': {
        // Enter with no B yet takes the row under the cursor as B.
        const pb = b ?? (here && here.key !== a?.key ? here : null);
        if (!b && pb) setB(pb);
        compare(a, pb);
        break;
      }
      default:
        return;
    }
    e.preventDefault();
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
                setResult(null);
                requestAnimationFrame(() => listbox.current?.focus());
              }}
            />
          </Suspense>
        ) : (
          <div className="compare-picker">
            <div className="compare-picker-head">
              <b>Compare two branches</b>
              <span className="muted small">
                ↑/↓ move · <kbd>a</kbd> side A · <kbd>b</kbd> side B · <kbd>s</kbd> swap · <kbd>Enter</kbd> compare ·{' '}
                <kbd>Esc</kbd> close
              </span>
            </div>
            <div className="compare-picks small" data-testid="compare-picks">
              <span>
                A: <code>{a ? a.title : '—'}</code>
              </span>
              <span>
                B: <code>{b ? b.title : '—'}</code>
              </span>
              <button type="button" disabled={!a || !b || busy} onClick={() => compare(a, b)}>
                {busy ? 'Comparing…' : 'Compare'}
              </button>
            </div>
            {error && (
              <div className="compare-error" role="alert">
                {error}
              </div>
            )}
            <div
              className="compare-candidates"
              role="listbox"
              tabIndex={0}
              ref={listbox}
              aria-label="Leaves to compare"
              aria-activedescendant={list[cursor] ? `compare-c-${cursor}` : undefined}
              onKeyDown={onPickerKey}
              data-testid="compare-candidates"
            >
              {list.map((c, k) => (
                <div
                  key={c.key}
                  id={`compare-c-${k}`}
                  data-index={k}
                  role="option"
                  aria-selected={k === cursor}
                  className={`compare-candidate${k === cursor ? ' cursor' : ''}`}
                  data-testid="compare-candidate"
                  onClick={() => setCursor(k)}
                >
                  <span className="compare-badges">
                    {a?.key === c.key && <span className="compare-badge a">A</span>}
                    {b?.key === c.key && <span className="compare-badge b">B</span>}
                  </span>
                  <span className="compare-candidate-kind small">{c.kind}</span>
                  <code>{c.title}</code>
                  <span className="muted small compare-candidate-detail">{c.detail}</span>
                  <span className="compare-candidate-buttons">
                    <button type="button" tabIndex={-1} onClick={() => setA(c)}>
                      A
                    </button>
                    <button type="button" tabIndex={-1} onClick={() => setB(c)}>
                      B
                    </button>
                  </span>
                </div>
              ))}
            </div>
          </div>
        )}
      </div>
    </div>
  );
}
