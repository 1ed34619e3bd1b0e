import type { ActionContext } from './action-context';

export interface AppActions {
  /** app.info, the first listing, and live updates. Returns the unsubscribe for events. */
  init(): Promise<() => void>;
  subscribeEvents(): () => void;
}

const EVENT_DEBOUNCE_MS = 250;

export function createAppActions({ api, s, check, summaries, actions }: ActionContext): AppActions {
  function subscribeEvents(): () => void {
    let listTimer: ReturnType<typeof setTimeout> | null = null;
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
    const offProgress = api.on('session.progress', (payload) => s().setOpenProgress(payload));
    const offListProgress = api.on('sessions.progress', (payload) => s().setListProgress(payload));
    // An append arrives as what it changed: applied to what the store holds (live-actions.ts).
    const offAppended = api.on('session.appended', (payload) => actions.liveAppended(payload));
    const offContext = api.on('session.contextChanged', (payload) => actions.liveContextChanged(payload));
    return () => {
      actions.stopLive();
      offChanged();
      offAppended();
      offContext();
      offProgress();
      offListProgress();
      if (listTimer) clearTimeout(listTimer);
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
