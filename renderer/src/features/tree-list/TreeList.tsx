import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useActions, useCanopy } from '../../app-context';
import { countOf } from '../../lib/format';
import { kindColor, kindTitle } from '../../model/kinds';
import { treeIndexOf } from '../../model/tree-index';
import { previewText } from '../../model/previews';
import { listKeyMove } from '../../ui/list-keys';
import { treeRows } from './tree-rows';
import { useOpenAtLeaf } from './useOpenAtLeaf';
import './tree-list.css';

const ROW = 22;
const INDENT = 14;
/** The indent stops growing at this share of the list's width: the text keeps most of it. */
const MAX_INDENT = '22%';

/**
 * The session as pi's /tree lists it: indented at branches, the active branch first, branch
 * points fold, virtualized (a 100 MiB session's 84k entries scroll like 10). Arrows move the
 * selection (the inspector follows), Left/Right fold and unfold, a click selects.
 */
export function TreeList() {
  const graph = useCanopy((s) => s.graph);
  const selectedId = useCanopy((s) => s.selectedEntryId);
  const lazyPreviews = useCanopy((s) => s.lazyPreviews);
  const actions = useActions();
  const [folded, setFolded] = useState<ReadonlySet<string>>(() => new Set());
  const index = useMemo(() => (graph ? treeIndexOf(graph) : null), [graph]);
  const rows = useMemo(() => (index ? treeRows(index, folded) : []), [index, folded]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW,
    overscan: 10,
  });
  const selectedAt = useMemo(
    () => (selectedId && index ? rows.findIndex((r) => index.ids[r.i] === selectedId) : -1),
    [rows, selectedId, index],
  );
  const items = virtualizer.getVirtualItems();

  // Previews of a graph drawn from the index arrive for the rows in view.
  useEffect(() => {
    if (!index || !graph?.pending) return;
    actions.requestPreviews(items.map((v) => index.ids[rows[v.index]!.i]!));
  });
  // The selection (from the graph, the transcript, following) scrolls into view.
  useEffect(() => {
    if (selectedAt >= 0) virtualizer.scrollToIndex(selectedAt, { align: 'auto' });
  }, [selectedAt, virtualizer]);
  useOpenAtLeaf(index, rows, setFolded, (at, align) => virtualizer.scrollToIndex(at, { align }));

  if (!graph || !index) return null;
  const toggle = (id: string) =>
    setFolded((f) => {
      const next = new Set(f);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const select = (at: number) => {
    const row = rows[at];
    if (row) actions.selectEntry(index.ids[row.i]!, { focus: true });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const row = rows[selectedAt];
    if (row?.branchPoint && ((e.key === 'ArrowLeft' && !row.folded) || (e.key === 'ArrowRight' && row.folded))) {
      e.preventDefault();
      toggle(index.ids[row.i]!);
      return;
    }
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / ROW));
    const next = listKeyMove(e.key, selectedAt, rows.length, page);
    if (next === null) return;
    e.preventDefault();
    select(next);
  };

  return (
    <div
      ref={scrollRef}
      className="tree-list"
      data-testid="tree-list"
      tabIndex={0}
      role="tree"
      aria-label="Entry tree (arrows move, Left/Right fold)"
      onKeyDown={onKeyDown}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {items.map((v) => {
          const row = rows[v.index]!;
          const id = index.ids[row.i]!;
          const entry = index.entries[row.i]!;
          const preview = previewText(entry, lazyPreviews);
          return (
            <div
              key={id}
              role="treeitem"
              aria-selected={v.index === selectedAt}
              aria-expanded={row.branchPoint ? !row.folded : undefined}
              className={`tree-row${index.onLeafBranch[row.i] ? ' on-path' : ''}${v.index === selectedAt ? ' selected' : ''}`}
              data-testid="tree-row"
              data-entry-id={id}
              data-depth={row.depth}
              style={{
                transform: `translateY(${v.start}px)`,
                paddingLeft: `calc(6px + min(${row.depth * INDENT}px, ${MAX_INDENT}))`,
              }}
              onClick={() => select(v.index)}
            >
              {row.branchPoint ? (
                <button
                  type="button"
                  tabIndex={-1}
                  className="tree-fold"
                  data-testid="tree-fold"
                  aria-label={row.folded ? 'Unfold' : 'Fold'}
                  onClick={(e) => {
                    e.stopPropagation();
                    toggle(id);
                  }}
                >
                  {row.folded ? '▸' : '▾'}
                </button>
              ) : (
                <span className="tree-fold" />
              )}
              {row.depth * INDENT > 0 && (
                <span className="tree-depth muted small" title={`Branch depth ${row.depth}`}>
                  {row.depth > 6 ? row.depth : ''}
                </span>
              )}
              <span className="tree-kind" style={{ color: kindColor(entry) }}>
                {kindTitle(entry)}
              </span>
              <span className="tree-preview">{preview}</span>
              {row.folded && <span className="muted small">+{countOf(row.hidden, 'entry', 'entries')}</span>}
              {id === graph.leafId && <span className="chip leaf-chip">leaf</span>}
            </div>
          );
        })}
      </div>
    </div>
  );
}
