import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useActions, useCanopy } from '../../app-context';
import { countOf, formatDateTime } from '../../lib/format';
import { ForkIcon } from '../../lib/icons';
import type { EntryDetailDto } from '../../lib/shared';
import { kindColor, kindTitle } from '../../model/kinds';
import { treeIndexOf } from '../../model/tree-index';
import { previewText } from '../../model/previews';
import { FollowToggle } from './FollowToggle';
import { transcriptRows, unreadCount, type TranscriptRow } from './transcript-model';
import { useEntryBodies, type BodyState } from './useEntryBodies';
import './transcript.css';

/** How an entry's body is drawn (the inspector's rendering, handed in by the shell). */
export type BodyRenderer = (detail: EntryDetailDto) => ReactNode;

const ESTIMATE = 96;
/** A user scroll selects the row at the top once the scrolling has rested this long. */
const SCROLL_REST_MS = 180;
/** Input within this long before a scroll event makes it the user's (not a scrollToIndex). */
const USER_INPUT_MS = 800;

/**
 * The path to the leaf (or to the what-if leaf) as one column of messages, virtualized; bodies are
 * read for the rows in view only. In step with the graph: selecting an entry scrolls to it, and
 * scrolling by hand selects the entry at the top.
 */
export function TranscriptPanel({ renderBody }: { renderBody: BodyRenderer }) {
  const graph = useCanopy((s) => s.graph);
  const whatIf = useCanopy((s) => s.whatIfLeaf?.entryId ?? null);
  const selectedId = useCanopy((s) => s.selectedEntryId);
  const lastSeen = useCanopy((s) => s.lastSeenLeafId);
  const actions = useActions();
  const leafId = whatIf ?? graph?.leafId ?? null;
  const rows = useMemo(() => (graph ? transcriptRows(treeIndexOf(graph), leafId) : []), [graph, leafId]);
  const unread = whatIf ? 0 : unreadCount(rows, lastSeen);
  const scrollRef = useRef<HTMLDivElement>(null);
  const userInputAt = useRef(0);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATE,
    overscan: 3,
    getItemKey: (i) => rows[i]!.id,
    initialOffset: () => Math.max(0, rows.length * ESTIMATE),
  });
  const items = virtualizer.getVirtualItems();
  const visibleIds = items.map((v) => rows[v.index]!.id);
  const bodies = useEntryBodies(graph?.sessionId ?? '', graph ? visibleIds : []);

  // Select scrolls: the selected entry (a click in the graph, a followed leaf) comes into view.
  const lastScrolledTo = useRef<string | null>(null);
  useEffect(() => {
    const target = selectedId ?? leafId;
    if (!target || target === lastScrolledTo.current) return;
    const at = rows.findIndex((r) => r.id === target);
    if (at === -1) return;
    lastScrolledTo.current = target;
    if (Date.now() - userInputAt.current < USER_INPUT_MS) return;
    virtualizer.scrollToIndex(at, { align: target === leafId ? 'end' : 'start' });
  }, [selectedId, leafId, rows, virtualizer]);

  // Scroll selects: after the user's scrolling rests, the row at the top becomes the selection.
  const restTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (restTimer.current && clearTimeout(restTimer.current)), []);
  const onScroll = () => {
    if (Date.now() - userInputAt.current > USER_INPUT_MS) return;
    if (restTimer.current) clearTimeout(restTimer.current);
    restTimer.current = setTimeout(() => {
      const box = scrollRef.current;
      if (!box) return;
      const top = box.scrollTop + 8;
      const item = virtualizer.getVirtualItems().find((v) => v.end > top);
      const row = item && rows[item.index];
      if (!row || row.id === selectedId) return;
      lastScrolledTo.current = row.id;
      actions.pauseFollow();
      actions.selectEntry(row.id, { focus: true });
    }, SCROLL_REST_MS);
  };
  const markInput = () => {
    userInputAt.current = Date.now();
  };

  if (!graph) return <div className="muted small pad">Open a session to read its conversation.</div>;
  const unreadFrom = unread > 0 ? rows.length - unread : -1;
  return (
    <div className="transcript" data-testid="transcript" data-leaf-id={leafId ?? undefined}>
      <div className="transcript-head">
        <span className="muted small" data-testid="transcript-count">
          {whatIf ? 'what-if leaf · ' : ''}
          {countOf(rows.length, 'entry', 'entries')} on the path
        </span>
        <span className="grow" />
        {whatIf && (
          <button type="button" className="link-button small" onClick={() => void actions.setWhatIfLeaf(null)}>
            back to the leaf
          </button>
        )}
        <FollowToggle />
      </div>
      <div
        ref={scrollRef}
        className="transcript-scroll"
        tabIndex={0}
        aria-label="Transcript: the path to the leaf"
        onScroll={onScroll}
        onWheel={markInput}
        onPointerDown={markInput}
        onTouchMove={markInput}
        onKeyDown={markInput}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((v) => {
            const row = rows[v.index]!;
            return (
              <div
                key={v.key}
                ref={virtualizer.measureElement}
                data-index={v.index}
                className="transcript-slot"
                style={{ transform: `translateY(${v.start}px)` }}
              >
                {v.index === unreadFrom && (
                  <div className="unread-marker" data-testid="unread-marker">
                    {unread} new since you looked away
                  </div>
                )}
                <TranscriptItem
                  row={row}
                  body={bodies.get(row.id)}
                  selected={row.id === selectedId}
                  renderBody={renderBody}
                />
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

const TranscriptItem = memo(function TranscriptItem({
  row,
  body,
  selected,
  renderBody,
}: {
  row: TranscriptRow;
  body: BodyState | undefined;
  selected: boolean;
  renderBody: BodyRenderer;
}) {
  const actions = useActions();
  const { entry } = row;
  const preview = useCanopy((s) => previewText(entry, s.lazyPreviews));
  const select = () => {
    actions.pauseFollow();
    actions.selectEntry(row.id, { focus: true });
  };
  return (
    <article
      className={`transcript-row t-${row.kind}${selected ? ' selected' : ''}`}
      data-testid="transcript-row"
      data-entry-id={row.id}
      data-kind={entry.type === 'message' ? entry.role : entry.type}
      style={{ borderLeftColor: kindColor(entry) }}
    >
      <header className="transcript-row-head">
        <button type="button" className="link-button t-kind" onClick={select} title="Select this entry in the graph">
          {row.kind === 'compaction' ? '▣ compaction' : kindTitle(entry)}
        </button>
        <span className="muted small">{formatDateTime(entry.timestamp)}</span>
      </header>
      {row.kind === 'meta' ? (
        <div className="muted small">{preview}</div>
      ) : body === undefined ? (
        <div className="muted small transcript-pending">{preview || '…'}</div>
      ) : 'error' in body ? (
        <div className="error-note small">{body.error}</div>
      ) : (
        <div className="transcript-body">{renderBody(body)}</div>
      )}
      {row.branches.length > 0 && <BranchOffer row={row} />}
    </article>
  );
});

/** A branch point: the other branches that leave this entry, each readable as a what-if leaf. */
function BranchOffer({ row }: { row: TranscriptRow }) {
  const actions = useActions();
  const n = row.branches.length;
  return (
    <div className="branch-offer" data-testid="branch-offer">
      <span className="muted small">
        <ForkIcon size={11} /> {n} other {n === 1 ? 'branch' : 'branches'} from here:
      </span>
      {row.branches.slice(0, 8).map((b) => (
        <button
          key={b.id}
          type="button"
          className="chip branch-chip"
          data-testid="branch-option"
          title="Read this branch (its newest tip as a what-if leaf)"
          onClick={() => {
            actions.pauseFollow();
            void actions.setWhatIfLeaf(b.tipId);
            actions.selectEntry(b.id, { focus: true });
          }}
        >
          {b.preview ? b.preview.slice(0, 48) : b.id}
        </button>
      ))}
      {n > 8 && <span className="muted small">+{n - 8}</span>}
    </div>
  );
}
