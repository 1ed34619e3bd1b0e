import { memo, useEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import { useActions, useCanopy } from '../../app-context';
import { formatCount, formatTokens } from '../../lib/format';
import type {
  ContextMessageDto,
  ContextViewDto,
  EntryContextStateDto,
  EntryNodeDto,
  SessionGraphDto,
} from '../../lib/shared';
import { kindColor, kindTitle } from '../../model/kinds';
import { entryById, treeIndexOf } from '../../model/tree-index';
import { EntryLink } from '../../ui/EntryLink';
import { messagesByEntry, STATE_LABELS, statesById } from '../../model/context-order';
import { moveFocusAmong } from '../../ui/list-keys';

/** Rows drawn at first; a 100k-entry context is shown on request, page by page. */
const PAGE = 300;

/** The context entries in the order pi uses them, each with the messages it sends. */
export function ContextEntries({ view, ids, graph }: { view: ContextViewDto; ids: string[]; graph: SessionGraphDto }) {
  const actions = useActions();
  const selectedId = useCanopy((s) => s.selectedEntryId);
  // The panel is hidden while the entry tab is shown: scroll once it is in view.
  const shown = useCanopy((s) => s.rightTab === 'context');
  const [limit, setLimit] = useState(PAGE);
  const listRef = useRef<HTMLOListElement>(null);
  const index = treeIndexOf(graph);
  const states = useMemo(() => statesById(view, index), [view, index]);
  const messages = useMemo(() => messagesByEntry(view), [view]);

  // Bring the selected entry's row into sight when the selection changes (not on every live update).
  const scrolledFor = useRef<string | null>(null);
  useEffect(() => {
    if (!shown || !selectedId || scrolledFor.current === selectedId) return;
    const at = ids.indexOf(selectedId);
    if (at === -1) return;
    if (at >= limit) {
      setLimit(Math.ceil((at + 1) / PAGE) * PAGE);
      return;
    }
    scrolledFor.current = selectedId;
    const rows = listRef.current?.children ?? [];
    for (const row of rows) {
      if ((row as HTMLElement).dataset.entryId === selectedId) row.scrollIntoView?.({ block: 'nearest' });
    }
  }, [shown, selectedId, ids, limit]);

  const onSelect = (id: string) => actions.selectEntry(id, { focus: true });
  const rowsShown = ids.length > limit ? ids.slice(0, limit) : ids;
  return (
    <section className="ctx-section" data-testid="context-messages">
      <h3>
        Sent to the model, in order{' '}
        <span className="muted small">
          · {formatCount(view.messages.length)} message{view.messages.length === 1 ? '' : 's'}
        </span>
      </h3>
      {ids.length === 0 ? (
        <div className="muted small">
          Nothing: {view.leafId === null ? 'there is no leaf' : 'no entry on this path sends a message'}.
        </div>
      ) : (
        <ol
          className="context-entries"
          ref={listRef}
          data-testid="context-entries"
          onKeyDown={(e) => {
            if (
              listRef.current &&
              !e.altKey &&
              !e.ctrlKey &&
              !e.metaKey &&
              moveFocusAmong(listRef.current, '[data-testid="context-entry"]', e.key)
            )
              e.preventDefault();
          }}
        >
          {rowsShown.map((id) => (
            <ContextEntryRow
              key={id}
              id={id}
              entry={entryById(index, id)}
              state={states.get(id)}
              messages={messages.get(id)}
              selected={id === selectedId}
              onSelect={onSelect}
            />
          ))}
        </ol>
      )}
      {ids.length > limit && (
        <button type="button" className="link-button show-more" onClick={() => setLimit(limit + PAGE * 10)}>
          show {formatCount(Math.min(PAGE * 10, ids.length - limit))} more of {formatCount(ids.length - limit)}
        </button>
      )}
    </section>
  );
}

const NO_MESSAGES: ContextMessageDto[] = [];

const ContextEntryRow = memo(function ContextEntryRow({
  id,
  entry,
  state,
  messages = NO_MESSAGES,
  selected,
  onSelect,
}: {
  id: string;
  entry: EntryNodeDto | undefined;
  state: EntryContextStateDto | undefined;
  messages?: ContextMessageDto[];
  selected: boolean;
  onSelect: (id: string) => void;
}) {
  const tokens = messages.reduce((n, m) => n + m.tokens, 0);
  const s = state?.state ?? 'included';
  const onClick = (e: MouseEvent) => {
    // Links inside the row select their own entry.
    if ((e.target as HTMLElement).closest('button')) return;
    onSelect(id);
  };
  return (
    <li
      className={`context-entry ctx-row-${s}${selected ? ' selected' : ''}`}
      data-testid="context-entry"
      data-entry-id={id}
      data-state={s}
      style={{ ['--kind' as string]: entry ? kindColor(entry) : 'var(--k-unknown)' }}
      title={state ? `${STATE_LABELS[s]}: ${state.reason}` : undefined}
      onClick={onClick}
      tabIndex={0}
      onKeyDown={(e) => {
        if (e.key === 'Enter') onSelect(id);
      }}
    >
      <div className="ce-head">
        <span className="ce-kind">{entry ? kindTitle(entry) : 'entry'}</span>
        <code className="ce-id">{id}</code>
        {s !== 'included' && <span className={`state-pill small-pill state-${s}`}>{STATE_LABELS[s]}</span>}
        <span className="grow" />
        {messages.length > 0 && <span className="ce-tokens">{formatTokens(tokens)}</span>}
      </div>
      {messages.map((m) => (
        <div key={m.index} className={`ce-msg sent-${m.sentAs}`} data-testid="context-message" data-index={m.index}>
          {(messages.length > 1 || m.role !== m.sentAs || entry?.type !== 'message') && (
            <span
              className="role-tag"
              title={m.role === m.sentAs ? `sent as ${m.sentAs}` : `${m.role}, sent as ${m.sentAs}`}
            >
              {m.role === m.sentAs ? m.role : `${m.role} → ${m.sentAs}`}
            </span>
          )}
          <span className="ce-preview">{m.preview || '\u00a0'}</span>
          {messages.length > 1 && <span className="ce-tokens">{formatTokens(m.tokens)}</span>}
          {m.copyOf && (
            <span className="ce-copy muted small">
              copy of <EntryLink id={m.copyOf} />
            </span>
          )}
        </div>
      ))}
      {messages.length === 0 && state && (
        <div className="ce-reason">
          {state.reason}
          {state.by && (
            <>
              {' '}
              <EntryLink id={state.by} />
            </>
          )}
        </div>
      )}
    </li>
  );
});
