/**
 * Everything that talks to the Api and writes the store. Components call these; the store slices
 * stay synchronous and testable on their own.
 */
import type { Api, ErrorValue, ProfileDto, Result } from '../lib/shared';
import type { CanopyStore } from './index';

export interface Actions {
  /** app.info, the first listing, and live updates. Returns the unsubscribe for events. */
  init(): Promise<() => void>;
  loadSessions(opts?: { refresh?: boolean }): Promise<void>;
  /** Asks for summaries of these sessions soon, in batches, each id at most once per file version. */
  requestSummaries(sessionIds: readonly string[]): void;
  openSession(sessionId: string, opts?: { entryId?: string | null }): Promise<void>;
  reloadGraph(): Promise<void>;
  selectEntry(entryId: string | null, opts?: { focus?: boolean }): void;
  setProfile(profile: ProfileDto | null): Promise<void>;
  subscribeEvents(): () => void;
}

export const SUMMARY_BATCH = 100;
const SUMMARY_DELAY_MS = 80;
const EVENT_DEBOUNCE_MS = 250;

export function createActions(api: Api, store: CanopyStore): Actions {
  const s = () => store.getState();
  const requested = new Set<string>();
  const pending = new Set<string>();
  let summaryTimer: ReturnType<typeof setTimeout> | null = null;
  let openSeq = 0;
  let detailSeq = 0;

  /** Unwraps a result; a refused token becomes the app-wide error. */
  function check<T>(result: Result<T>): { data: T } | { error: ErrorValue } {
    if (result.ok) return { data: result.data };
    if (result.error.code === 'forbidden') s().setFatalError(result.error);
    return { error: result.error };
  }

  async function loadSessions(opts: { refresh?: boolean } = {}) {
    s().setListing(true);
    const r = check(await api['sessions.list'](opts.refresh ? { refresh: true } : {}));
    s().setListing(false);
    if ('error' in r) {
      s().setListError(r.error);
      return;
    }
    s().setSessionList(r.data);
    const summaries = s().summaries;
    for (const id of [...requested]) if (!summaries[id]) requested.delete(id);
  }

  async function flushSummaries() {
    summaryTimer = null;
    const ids = [...pending];
    pending.clear();
    for (let i = 0; i < ids.length; i += SUMMARY_BATCH) {
      const batch = ids.slice(i, i + SUMMARY_BATCH);
      const r = check(await api['sessions.summaries']({ sessionIds: batch }));
      if ('error' in r) {
        for (const id of batch) requested.delete(id);
        continue;
      }
      s().mergeSummaries(r.data);
    }
  }

  function requestSummaries(sessionIds: readonly string[]) {
    const have = s().summaries;
    for (const id of sessionIds) {
      if (have[id] || requested.has(id)) continue;
      requested.add(id);
      pending.add(id);
    }
    if (pending.size > 0 && summaryTimer === null) summaryTimer = setTimeout(() => void flushSummaries(), SUMMARY_DELAY_MS);
  }

  async function fetchGraph(sessionId: string): Promise<boolean> {
    const seq = ++openSeq;
    const profile = s().profileOverride;
    const r = check(await api['session.open'](profile ? { sessionId, profile } : { sessionId }));
    if (seq !== openSeq) return false;
    if ('error' in r) {
      s().setOpenError(r.error);
      return false;
    }
    s().setGraph(r.data);
    return true;
  }

  async function openSession(sessionId: string, opts: { entryId?: string | null } = {}) {
    const state = s();
    if (state.openSessionId !== sessionId) state.setProfileOverride(null);
    const sameGraph = state.openSessionId === sessionId && state.graph !== null;
    if (!sameGraph) {
      state.startOpening(sessionId);
      state.select(null);
      if (!(await fetchGraph(sessionId))) return;
    }
    const graph = s().graph;
    if (!graph) return;
    if (opts.entryId) selectEntry(opts.entryId, { focus: true });
    else if (!sameGraph && graph.leafId) s().requestFocus(graph.leafId);
  }

  async function reloadGraph() {
    const id = s().openSessionId;
    if (!id) return;
    s().startOpening(id);
    await fetchGraph(id);
    // The selected entry may have been an unfinished line: ask again.
    const selected = s().selectedEntryId;
    if (selected) void loadDetail(selected);
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
      listTimer = setTimeout(() => void loadSessions(), EVENT_DEBOUNCE_MS);
    });
    const offAppended = api.on('session.appended', (payload) => {
      if (payload.sessionId !== s().openSessionId) return;
      if (graphTimer) clearTimeout(graphTimer);
      graphTimer = setTimeout(() => void reloadGraph(), EVENT_DEBOUNCE_MS);
    });
    return () => {
      offChanged();
      offAppended();
      if (listTimer) clearTimeout(listTimer);
      if (graphTimer) clearTimeout(graphTimer);
    };
  }

  async function init() {
    const info = check(await api['app.info']({}));
    if ('data' in info) s().setAppInfo(info.data);
    if (s().fatalError) return () => {};
    await loadSessions();
    if (s().fatalError) return () => {};
    return subscribeEvents();
  }

  return { init, loadSessions, requestSummaries, openSession, reloadGraph, selectEntry, setProfile, subscribeEvents };
}
