import { graphFromWire } from '../lib/shared';
import type { ActionContext } from './action-context';
import { createLazyFill } from './lazy-fill';

export interface GraphActions {
  openSession(sessionId: string, opts?: { entryId?: string | null }): Promise<void>;
  /** Stops the open of the open session while it is still running (its graph shows `cancelled`). */
  cancelOpen(): Promise<void>;
  reloadGraph(): Promise<void>;
  /** These drawn nodes of a `pending` graph have no preview yet (asked for in batches). */
  requestPreviews(entryIds: readonly string[]): void;
}

export function createGraphActions({ api, store, s, check, actions }: ActionContext): GraphActions {
  const lazy = createLazyFill(api, store, check);
  let openSeq = 0;
  /** Bumped by each openSession that fetches a graph: only the latest one loads context and lineage. */
  let openRequestSeq = 0;
  /** An entry to select once its session's graph arrives (survives a reload that supersedes the open). */
  let pendingEntry: { sessionId: string; entryId: string } | null = null;

  /** `focusLeaf`: an open without an entry to show centres the leaf. */
  async function fetchGraph(sessionId: string, focusLeaf = false): Promise<boolean> {
    const seq = ++openSeq;
    const profile = s().profileOverride;
    const r = check(await api['session.open'](profile ? { sessionId, profile } : { sessionId }));
    if (seq !== openSeq) return false;
    if ('error' in r) {
      s().setOpenError(r.error);
      return false;
    }
    const graph = graphFromWire(r.data);
    const entryId = pendingEntry && pendingEntry.sessionId === sessionId ? pendingEntry.entryId : null;
    // Focus is asked for before the graph lands: the canvas then opens on that node instead of
    // drawing the root's neighbourhood first and travelling from there.
    const focus = entryId ?? (focusLeaf ? graph.leafId : null);
    if (focus) s().requestFocus(focus);
    s().setGraph(graph);
    // Appends that arrived while it was fetched, and not in it, are applied now.
    actions.graphLanded();
    void lazy.flags(graph, () => seq === openSeq);
    if (entryId) {
      pendingEntry = null;
      actions.selectEntry(entryId);
    }
    return true;
  }

  async function openSession(sessionId: string, opts: { entryId?: string | null } = {}) {
    const state = s();
    if (state.openSessionId !== sessionId) state.setProfileOverride(null);
    const outcome = state.forkOutcome;
    if (outcome && sessionId !== outcome.sourceSessionId && sessionId !== outcome.result.sessionId)
      state.setForkOutcome(null);
    const sameGraph = state.openSessionId === sessionId && state.graph !== null;
    // Another session's open still running is of no use any more: main stops reading its file.
    if (state.openSessionId !== sessionId) void cancelOpen();
    if (!sameGraph) {
      const seq = ++openRequestSeq;
      // Selected by whichever fetch of this graph lands: a live reload may supersede this one.
      pendingEntry = opts.entryId ? { sessionId, entryId: opts.entryId } : null;
      state.startOpening(sessionId);
      state.select(null);
      state.startContext();
      // The graph first: the main process answers one request at a time, and the context of a large
      // session costs as much as its graph. The context and the lineage follow, unless another open
      // took over (a live reload of this graph loads the context itself, the lineage only from here).
      await fetchGraph(sessionId, !opts.entryId);
      if (seq !== openRequestSeq) return;
      // A graph drawn from the index: the previews of what is in view go before the context.
      if (s().graph?.pending) await lazy.previewsFirst();
      if (seq !== openRequestSeq) return;
      await Promise.all([actions.loadContext(), actions.loadLineage()]);
      return;
    }
    if (opts.entryId) actions.selectEntry(opts.entryId, { focus: true });
  }

  /** Asks main to stop the open session's open while it runs (reads the state before any await). */
  async function cancelOpen() {
    const state = s();
    if (state.opening && state.openSessionId) await api['session.cancelOpen']({ sessionId: state.openSessionId });
  }

  async function reloadGraph() {
    const id = s().openSessionId;
    if (!id) return;
    s().startOpening(id);
    // A what-if leaf stays chosen: it is still in the file after an append.
    await Promise.all([fetchGraph(id), actions.loadContext()]);
    // The selected entry may have been an unfinished line: selecting it again reads it again.
    const selected = s().selectedEntryId;
    if (selected) actions.selectEntry(selected);
  }

  return { openSession, cancelOpen, reloadGraph, requestPreviews: lazy.want };
}
