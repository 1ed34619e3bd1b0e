/**
 * Everything that talks to the Api and writes the store. Components call these; the store slices
 * stay synchronous and testable on their own.
 */
import { graphFromWire, type Api, type ErrorValue, type ForkRequestDto, type ForkResultDto, type ProfileDto, type Result } from '../lib/shared';
import { shareIds } from '../model/context-order';
import { forkKey } from './fork-slice';
import { createLazyFill } from './lazy-fill';
import { createSummaries } from './summaries';
import type { CanopyStore } from './index';

export interface Actions {
  /** app.info, the first listing, and live updates. Returns the unsubscribe for events. */
  init(): Promise<() => void>;
  loadSessions(opts?: { refresh?: boolean }): Promise<void>;
  /** Asks for summaries of these sessions soon, in batches, each id at most once per file version. */
  requestSummaries(sessionIds: readonly string[]): void;
  /** These drawn nodes of a `pending` graph have no preview yet (asked for in batches). */
  requestPreviews(entryIds: readonly string[]): void;
  openSession(sessionId: string, opts?: { entryId?: string | null }): Promise<void>;
  /** Stops the open of the open session while it is still running (its graph shows `cancelled`). */
  cancelOpen(): Promise<void>;
  reloadGraph(): Promise<void>;
  selectEntry(entryId: string | null, opts?: { focus?: boolean }): void;
  setProfile(profile: ProfileDto | null): Promise<void>;
  subscribeEvents(): () => void;
  /** What reaches the model at the current leaf, or at the what-if leaf when one is set. */
  loadContext(): Promise<void>;
  /** "What if this were the leaf?" (null: back to the profile's current leaf). */
  setWhatIfLeaf(entryId: string | null): Promise<void>;
  loadLineage(): Promise<void>;
  /** Asks main what a fork/clone would write (nothing is written); one request per key. */
  previewFork(request: ForkRequestDto): Promise<void>;
  /** Writes the fork, refreshes the list and opens the new session. null when refused or failed. */
  fork(request: ForkRequestDto): Promise<ForkResultDto | null>;
  /** Files from a file input or a drop: their bytes are uploaded (never a path), listed under "Opened", the last one opened. */
  openFiles(files: ReadonlyArray<{ name: string; text(): Promise<string> }>): Promise<void>;
  /** File ▸ Open… in Electron: main's native dialog. */
  openDialog(): Promise<void>;
}

/** The key of the preview the fork panel shows for a request on the open session (file size: appends change a preview). */
export function currentForkKey(state: { openSessionId: string | null; profileOverride: ProfileDto | null; graph: { sizeBytes: number } | null }, request: ForkRequestDto): string | null {
  if (!state.openSessionId) return null;
  return forkKey(state.openSessionId, state.profileOverride, request, state.graph?.sizeBytes ?? 0);
}

export { SUMMARY_BATCH } from './summaries';
const EVENT_DEBOUNCE_MS = 250;
/** Least time between two live re-reads of the open session while lines keep arriving. */
const APPEND_GAP_MS = 100;

export function createActions(api: Api, store: CanopyStore): Actions {
  const s = () => store.getState();
  let openSeq = 0;
  /** Bumped by each openSession that fetches a graph: only the latest one loads context and lineage. */
  let openRequestSeq = 0;
  /** An entry to select once its session's graph arrives (survives a reload that supersedes the open). */
  let pendingEntry: { sessionId: string; entryId: string } | null = null;
  let detailSeq = 0;
  let contextSeq = 0;
  let lineageSeq = 0;

  /** Unwraps a result; a refused token becomes the app-wide error. */
  function check<T>(result: Result<T>): { data: T } | { error: ErrorValue } {
    if (result.ok) return { data: result.data };
    if (result.error.code === 'forbidden') s().setFatalError(result.error);
    return { error: result.error };
  }
  const summaries = createSummaries(api, store, check);
  const lazy = createLazyFill(api, store, check);

  async function loadSessions(opts: { refresh?: boolean } = {}) {
    s().setListing(true);
    const r = check(await api['sessions.list'](opts.refresh ? { refresh: true } : {}));
    s().setListing(false);
    if ('error' in r) {
      s().setListError(r.error);
      return;
    }
    s().setSessionList(r.data);
    summaries.relisted();
    void summaries.fill();
  }

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
    void lazy.flags(graph, () => seq === openSeq);
    if (entryId) {
      pendingEntry = null;
      selectEntry(entryId);
    }
    return true;
  }

  async function openSession(sessionId: string, opts: { entryId?: string | null } = {}) {
    const state = s();
    if (state.openSessionId !== sessionId) state.setProfileOverride(null);
    const outcome = state.forkOutcome;
    if (outcome && sessionId !== outcome.sourceSessionId && sessionId !== outcome.result.sessionId) state.setForkOutcome(null);
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
      await Promise.all([loadContext(), loadLineage()]);
      return;
    }
    if (opts.entryId) selectEntry(opts.entryId, { focus: true });
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
    await Promise.all([fetchGraph(id), loadContext()]);
    // The selected entry may have been an unfinished line: ask again.
    const selected = s().selectedEntryId;
    if (selected) void loadDetail(selected);
  }

  async function loadContext() {
    const sessionId = s().openSessionId;
    if (!sessionId) return;
    const seq = ++contextSeq;
    const profile = s().profileOverride;
    const whatIf = s().whatIfLeaf;
    s().startContext();
    const r = check(
      await api['session.context']({ sessionId, ...(profile ? { profile } : {}), ...(whatIf ? { leafId: whatIf.entryId } : {}) }),
    );
    if (seq !== contextSeq) return;
    if ('error' in r) s().setContextError(r.error);
    else s().setContextView(shareIds(r.data, s().graph));
  }

  async function setWhatIfLeaf(asked: string | null) {
    // The current leaf as a what-if leaf is just the current context.
    const entryId = asked !== null && asked === s().graph?.leafId ? null : asked;
    const current = s().whatIfLeaf?.entryId ?? null;
    if (current === entryId && s().contextView) return;
    s().setWhatIfLeaf(entryId);
    await loadContext();
  }

  async function loadLineage() {
    const sessionId = s().openSessionId;
    if (!sessionId) return;
    const seq = ++lineageSeq;
    const r = check(await api['session.lineage']({ sessionId }));
    if (seq !== lineageSeq) return;
    // A missing lineage only hides the family markers; the session itself is fine.
    s().setLineage('error' in r ? null : r.data);
  }

  async function previewFork(request: ForkRequestDto) {
    const state = s();
    const sessionId = state.openSessionId;
    const key = currentForkKey(state, request);
    if (!sessionId || key === null) return;
    const have = state.forkPreview;
    if (have?.key === key && (have.loading || have.preview)) return;
    const profile = state.profileOverride;
    state.startForkPreview(key);
    const r = check(await api['session.forkPreview']({ sessionId, request, ...(profile ? { profile } : {}) }));
    if ('error' in r) s().setForkPreview(key, null, r.error);
    else s().setForkPreview(key, r.data);
  }

  async function fork(request: ForkRequestDto): Promise<ForkResultDto | null> {
    const state = s();
    const sessionId = state.openSessionId;
    if (!sessionId || state.forking) return null;
    const profile = state.profileOverride;
    state.setForking(true);
    const r = check(await api['session.fork']({ sessionId, request, ...(profile ? { profile } : {}) }));
    if ('error' in r) {
      s().setForking(false, r.error);
      return null;
    }
    s().setForking(false);
    s().setForkOutcome({ sourceSessionId: sessionId, request, result: r.data });
    await loadSessions();
    await openSession(r.data.sessionId);
    return r.data;
  }

  async function loadDetail(entryId: string) {
    const sessionId = s().openSessionId;
    if (!sessionId) return;
    const seq = ++detailSeq;
    const r = check(await api['entry.get']({ sessionId, entryId }));
    if (seq !== detailSeq) return;
    if ('error' in r) s().setDetailError(r.error);
    else s().setDetail(r.data);
  }

  function selectEntry(entryId: string | null, opts: { focus?: boolean } = {}) {
    s().select(entryId);
    if (entryId === null) return;
    if (opts.focus) s().requestFocus(entryId);
    void loadDetail(entryId);
  }

  async function setProfile(profile: ProfileDto | null) {
    s().setProfileOverride(profile);
    await reloadGraph();
  }

  function subscribeEvents(): () => void {
    let listTimer: ReturnType<typeof setTimeout> | null = null;
    let graphTimer: ReturnType<typeof setTimeout> | null = null;
    const offChanged = api.on('sessions.changed', () => {
      if (listTimer) clearTimeout(listTimer);
      // A new file may be a fork of the open session (or its parent).
      listTimer = setTimeout(() => void loadSessions().then(() => loadLineage()), EVENT_DEBOUNCE_MS);
    });
    // Appends to the open session: leading edge (the first one is re-read at once, only
    // coalescing events of the same tick), then at most one re-read in flight and one queued,
    // APPEND_GAP_MS apart, so a session being written cannot flood the main process.
    let reloading = false;
    let dirty = false;
    let stopped = false;
    const runReloads = async () => {
      graphTimer = null;
      reloading = true;
      try {
        while (dirty && !stopped) {
          dirty = false;
          await reloadGraph();
          if (dirty && !stopped) await new Promise<void>((r) => { graphTimer = setTimeout(r, APPEND_GAP_MS); });
          graphTimer = null;
        }
      } finally {
        reloading = false;
      }
    };
    const offProgress = api.on('session.progress', (payload) => s().setOpenProgress(payload));
    const offListProgress = api.on('sessions.progress', (payload) => s().setListProgress(payload));
    const offAppended = api.on('session.appended', (payload) => {
      if (payload.sessionId !== s().openSessionId) return;
      dirty = true;
      if (!reloading && graphTimer === null) graphTimer = setTimeout(() => void runReloads(), 0);
    });
    return () => {
      stopped = true;
      offChanged();
      offAppended();
      offProgress();
      offListProgress();
      if (listTimer) clearTimeout(listTimer);
      if (graphTimer) clearTimeout(graphTimer);
    };
  }

  async function init() {
    const info = check(await api['app.info']({}));
    if ('data' in info) s().setAppInfo(info.data);
    if (s().fatalError) return () => {};
    // Subscribed first: a long first listing reports its progress.
    const offEvents = subscribeEvents();
    const off = () => {
      offEvents();
      summaries.stop();
    };
    await loadSessions();
    if (s().fatalError) {
      off();
      return () => {};
    }
    return off;
  }

  async function openFiles(files: ReadonlyArray<{ name: string; text(): Promise<string> }>) {
    let last: string | null = null;
    for (const file of files) {
      const r = await api['session.upload']({ name: file.name, text: await file.text() });
      if (r.ok) last = r.data.sessionId;
      else s().showToast(`${file.name}: ${r.error.message}`);
    }
    if (!last) return;
    await loadSessions({ refresh: true });
    await openSession(last);
  }

  async function openDialog() {
    const r = await api['session.openDialog']({});
    if (!r.ok) return s().showToast(r.error.message);
    await loadSessions({ refresh: true });
    const last = r.data.sessionIds.at(-1);
    if (last) await openSession(last);
  }

  return {
    openFiles,
    openDialog,
    init,
    loadSessions,
    requestSummaries: summaries.request,
    requestPreviews: lazy.want,
    openSession,
    cancelOpen,
    reloadGraph,
    selectEntry,
    setProfile,
    subscribeEvents,
    loadContext,
    setWhatIfLeaf,
    loadLineage,
    previewFork,
    fork,
  };
}
