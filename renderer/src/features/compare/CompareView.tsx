/**
 * Two branches side by side from their common ancestor: per-side stats, the turns aligned where
 * both asked the same thing (first divergence marked, n/p step through divergent turns, s swaps the
 * sides), then what each did to the files.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { formatCost, formatTokens } from '../../lib/format';
import type { CompareDto, CompareSideDto, CompareTurnDto } from '../../lib/shared';
import { CompareFiles } from './CompareFiles';
import { stepDivergence, swapped } from './compare-model';

const MAX_TURN_ENTRIES = 12;
/** Rows drawn at first (a long session has thousands of turns); more on demand or when stepped to. */
const ROWS_PAGE = 200;

function sideTitle(name: string, side: CompareSideDto) {
  return (
    <span>
      <b>{name}</b> <code>{side.leafId}</code>
      {side.sessionId && <span className="muted small"> · session {side.sessionId.slice(0, 8)}</span>}
    </span>
  );
}

function Stats({ a, b }: { a: CompareSideDto; b: CompareSideDto }) {
  const rows: [string, (s: CompareSideDto) => string][] = [
    ['entries', (s) => String(s.stats.entries)],
    ['messages', (s) => String(s.stats.messages)],
    ['tool calls', (s) => String(s.stats.toolCalls)],
    ['errors', (s) => String(s.stats.errors)],
    ['tokens', (s) => formatTokens(s.stats.usage.totalTokens)],
    ['cost', (s) => formatCost(s.cost)],
    ['model changes', (s) => s.stats.modelChanges.map((m) => m.model).join(', ') || '—'],
    ['thinking changes', (s) => s.stats.thinkingChanges.map((t) => t.level).join(', ') || '—'],
    ['compactions', (s) => String(s.stats.compactions.length)],
    ['files changed', (s) => String(s.files.length)],
  ];
  return (
    <table className="compare-stats" data-testid="compare-stats">
      <thead>
        <tr>
          <th />
          <th>A</th>
          <th>B</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([name, of]) => (
          <tr key={name} className={of(a) !== of(b) ? 'differs' : undefined}>
            <th scope="row">{name}</th>
            <td>{of(a)}</td>
            <td>{of(b)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Opens an entry in the graph (its session's, when the side is another session of the family). */
type OpenEntry = (sessionId: string | undefined, entryId: string) => void;

function Turn({ turn, side, onOpen }: { turn: CompareTurnDto | undefined; side: CompareSideDto; onOpen: OpenEntry }) {
  if (!turn) return <div className="compare-turn empty muted small">—</div>;
  const rest = turn.prompt === null ? turn.entries : turn.entries.slice(1);
  return (
    <div className="compare-turn">
      <div className="compare-prompt" title={turn.entries[0]?.id}>
        {turn.prompt ?? <span className="muted">(continues without a new prompt)</span>}
      </div>
      <ul className="compare-entries">
        {rest.slice(0, MAX_TURN_ENTRIES).map((e) => (
          <li key={e.id} className={e.isError ? 'error' : undefined}>
            <button
              type="button"
              className="compare-entry"
              title={`Show ${e.id} in the graph`}
              onClick={() => onOpen(side.sessionId, e.id)}
            >
              <span className="compare-kind">{e.role ?? e.type}</span> {e.preview}
            </button>
          </li>
        ))}
        {rest.length > MAX_TURN_ENTRIES && <li className="muted">… {rest.length - MAX_TURN_ENTRIES} more</li>}
      </ul>
    </div>
  );
}

export function CompareView({ data, onBack, onOpen }: { data: CompareDto; onBack: () => void; onOpen: OpenEntry }) {
  const [flip, setFlip] = useState(false);
  const c = flip ? swapped(data) : data;
  const [at, setAt] = useState<number | null>(data.firstDivergence);
  const [shown, setShown] = useState(ROWS_PAGE);
  // Stepping to a row not drawn yet draws up to it.
  const drawn = Math.max(shown, at === null ? 0 : at + 1);
  const root = useRef<HTMLDivElement>(null);
  const [a, b] = c.sides;

  useEffect(() => root.current?.focus(), []);
  useEffect(() => {
    if (at === null) return;
    root.current?.querySelector(`[data-row="${at}"]`)?.scrollIntoView?.({ block: 'nearest' });
  }, [at]);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const k = e.key;
    if (k === 's') setFlip((f) => !f);
    else if (k === 'n' || k === ']') setAt((x) => stepDivergence(c.rows, x, 1));
    else if (k === 'p' || k === '[') setAt((x) => stepDivergence(c.rows, x, -1));
    else if (k === 'Backspace') onBack();
    else return;
    e.preventDefault();
  };

  return (
    <div className="compare-view" tabIndex={0} ref={root} onKeyDown={onKeyDown} data-testid="compare-view">
      <div className="compare-head">
        <div>
          {sideTitle('A', a)} <span className="muted">vs</span> {sideTitle('B', b)}
        </div>
        <div className="compare-ancestor" data-testid="compare-ancestor">
          {c.ancestor ? (
            <>
              Common ancestor <code>{c.ancestor.id}</code> <span className="muted">{c.ancestor.preview}</span>
            </>
          ) : (
            'No common ancestor: the two paths share no entry.'
          )}
        </div>
        <div className="compare-actions small">
          <button type="button" onClick={() => setFlip((f) => !f)} data-testid="compare-swap">
            Swap sides <kbd>s</kbd>
          </button>
          <button type="button" onClick={() => setAt((x) => stepDivergence(c.rows, x, -1))}>
            Previous divergence <kbd>p</kbd>
          </button>
          <button type="button" onClick={() => setAt((x) => stepDivergence(c.rows, x, 1))}>
            Next divergence <kbd>n</kbd>
          </button>
          <button type="button" onClick={onBack}>
            Pick other leaves <kbd>⌫</kbd>
          </button>
        </div>
      </div>
      <div className="compare-body">
        <Stats a={a} b={b} />
        <section className="compare-turns" aria-label="Turns" data-testid="compare-turns">
          <h3>Turns</h3>
          {c.rows.length === 0 && <div className="muted">Both leaves are the ancestor: nothing to compare.</div>}
          {c.rows.slice(0, drawn).map((r, k) => (
            <div
              key={k}
              data-row={k}
              data-testid="compare-row"
              className={`compare-row${r.divergent ? ' divergent' : ''}${k === at ? ' current' : ''}`}
              aria-current={k === at ? 'true' : undefined}
            >
              <div className="compare-row-mark small">
                {k === c.firstDivergence ? (
                  <span className="compare-first" data-testid="compare-first-divergence">
                    first divergence
                  </span>
                ) : r.samePrompt ? (
                  <span className="muted">{r.divergent ? 'same prompt, other answer' : 'same'}</span>
                ) : (
                  <span className="muted">differs</span>
                )}
              </div>
              <div className="compare-two">
                <Turn turn={r.a === null ? undefined : a.turns[r.a]} side={a} onOpen={onOpen} />
                <Turn turn={r.b === null ? undefined : b.turns[r.b]} side={b} onOpen={onOpen} />
              </div>
            </div>
          ))}
          {c.rows.length > drawn && (
            <button type="button" className="compare-more" onClick={() => setShown(drawn + ROWS_PAGE)}>
              Show {Math.min(ROWS_PAGE, c.rows.length - drawn)} more of {c.rows.length - drawn} turns
            </button>
          )}
        </section>
        <CompareFiles a={a} b={b} versus={data.versus} flip={flip} />
      </div>
    </div>
  );
}
