/** The picker: the leaves one can compare, moved over with ↑/↓ and chosen with `a`, `b`, `s` and Enter. */
import { useEffect, type KeyboardEvent, type RefObject } from 'react';
import { useCanopy } from '../../app-context';
import type { Candidate } from './compare-model';
import type { ComparePicks } from './use-compare-picks';

export function ComparePicker({
  picks,
  listbox,
  onCompare,
}: {
  picks: ComparePicks;
  listbox: RefObject<HTMLDivElement | null>;
  onCompare: (a: Candidate | null, b: Candidate | null) => void;
}) {
  const { list, cursor, a, b, setCursor, setA, setB } = picks;
  const busy = useCanopy((s) => s.comparison.busy);
  const error = useCanopy((s) => s.comparison.error);

  useEffect(() => {
    listbox.current?.querySelector(`[data-index="${cursor}"]`)?.scrollIntoView?.({ block: 'nearest' });
  }, [listbox, cursor]);

  const onKey = (e: KeyboardEvent) => {
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
        setCursor(() => 0);
        break;
      case 'End':
        setCursor(() => Math.max(0, list.length - 1));
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
        onCompare(a, pb);
        break;
      }
      default:
        return;
    }
    e.preventDefault();
  };

  return (
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
        <button type="button" disabled={!a || !b || busy} onClick={() => onCompare(a, b)}>
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
        onKeyDown={onKey}
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
            onClick={() => setCursor(() => k)}
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
  );
}
