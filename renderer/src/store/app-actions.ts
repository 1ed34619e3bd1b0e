import type { ActionContext } from './action-context';

export interface AppActions {
  /** app.info, the first listing, and live updates. Returns the unsubscribe for events. */
  init(): Promise<() => void>;
  subscribeEvents(): () => void;
}

const EVENT_DEBOUNCE_MS = 250;
/** Least time between two live re-reads of the open session while lines keep arriving. */
const APPEND_GAP_MS = 100;

export function createAppActions({ api, s, check, summaries, actions }: ActionContext): AppActions {
  function subscribeEvents(): () => void {
    let listTimer: ReturnType<typeof setTimeout> | null = null;
    let graphTimer: ReturnType<typeof setTimeout> | null = null;
    const offChanged = api.on('sessions.changed', ({ change }) => {
      if (change) {
        // The rows that changed patch the list; a file added or removed may be a fork of the open session.
        s().applySessionsChange(change);
        summaries.relisted();
        if (change.added.length + change.removed.length > 0 && s().openSessionId) void actions.loadLineage();
        return;
      }
      // Events may have been missed (a reconnect): the whole list is asked for again.
      if (listTimer) clearTimeout(listTimer);
      listTimer = setTimeout(() => void actions.loadSessions().then(() => actions.loadLineage()), EVENT_DEBOUNCE_MS);
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
          await actions.reloadGraph();
          if (dirty && !stopped)
            await new Promise<void>((r) => {
              graphTimer = setTimeout(r, APPEND_GAP_MS);
            });
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
    await actions.loadSessions();
    if (s().fatalError) {
      off();
      return () => {};
    }
    return off;
  }

  return { init, subscribeEvents };
}
