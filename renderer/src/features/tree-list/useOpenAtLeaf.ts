import { useEffect, useRef, useState } from 'react';
import { useActions, useCanopy } from '../../app-context';
import type { TreeIndex } from '../../model/tree-index';
import type { TreeRow } from './tree-rows';

/** Entries above one (the folds that could hide it). */
function ancestors(index: TreeIndex, id: string): Set<string> {
  const out = new Set<string>();
  for (let i = index.parent[index.indexOf.get(id) ?? 0] ?? -1; i !== -1; i = index.parent[i]!) out.add(index.ids[i]!);
  return out;
}

/**
 * As pi's /tree: the list opens with the cursor on the selection, else the leaf (which it
 * selects), centred; a later focus request (zoom to leaf, Shift+L, a search hit) moves the cursor
 * there, unfolding what hides it.
 */
export function useOpenAtLeaf(
  index: TreeIndex | null,
  rows: readonly TreeRow[],
  setFolded: (f: (prev: ReadonlySet<string>) => ReadonlySet<string>) => void,
  scrollTo: (at: number, align: 'center' | 'auto') => void,
): void {
  const actions = useActions();
  const focusRequest = useCanopy((s) => s.focusRequest);
  const leafId = useCanopy((s) => s.graph?.leafId ?? null);
  const sessionId = useCanopy((s) => s.graph?.sessionId ?? null);
  const selectedId = useCanopy((s) => s.selectedEntryId);
  const [wanted, setWanted] = useState<{ id: string | null; align: 'center' | 'auto' }>({ id: null, align: 'auto' });
  const openedSeq = useRef(focusRequest?.seq ?? 0);
  // Each session shown (the list opened on it, or it opened under the list) starts at the leaf.
  const opened = useRef<string | null>(null);
  useEffect(() => {
    if (sessionId === null || opened.current === sessionId) return;
    opened.current = sessionId;
    openedSeq.current = focusRequest?.seq ?? 0;
    setWanted({ id: selectedId ?? leafId, align: 'center' });
  }, [sessionId, selectedId, leafId, focusRequest]);
  useEffect(() => {
    if (focusRequest && focusRequest.seq !== openedSeq.current) setWanted({ id: focusRequest.nodeId, align: 'auto' });
  }, [focusRequest]);
  useEffect(() => {
    const id = wanted.id;
    if (!index || id === null) return;
    const at = rows.findIndex((r) => index.ids[r.i] === id);
    if (at === -1) {
      const above = ancestors(index, id);
      setFolded((prev) =>
        [...prev].some((f) => above.has(f)) ? new Set([...prev].filter((f) => !above.has(f))) : prev,
      );
      return;
    }
    setWanted({ id: null, align: 'auto' });
    scrollTo(at, wanted.align);
    if (selectedId !== id) actions.selectEntry(id);
  }, [index, rows, wanted, setFolded, scrollTo, actions, selectedId]);
}
