import type { Actions } from '../store';
import type { CanopyStore } from '../store';
import { formatDeepLink, parseDeepLink } from './deep-link';

/**
 * Keeps the address bar's hash and the store in step: a loaded or edited hash opens the session
 * (and entry); opening a session pushes a history step, selecting an entry replaces it.
 */
export function bindHashRoute(store: CanopyStore, actions: Actions, win: Window = window): () => void {
  // Store changes made while following the hash must not write the hash back.
  let applying = false;
  const apply = () => {
    applying = true;
    try {
      follow();
    } finally {
      applying = false;
    }
  };
  const follow = () => {
    const link = parseDeepLink(win.location.hash);
    const state = store.getState();
    if (!link) {
      if (state.openSessionId !== null && win.location.hash === '') state.closeSession();
      return;
    }
    if (state.openSessionId !== link.sessionId) void actions.openSession(link.sessionId, { entryId: link.entryId });
    else if (link.entryId && link.entryId !== state.selectedEntryId) actions.selectEntry(link.entryId, { focus: true });
  };
  apply();
  win.addEventListener('hashchange', apply);
  const unsubscribe = store.subscribe((state, prev) => {
    if (applying) return;
    if (state.openSessionId === prev.openSessionId && state.selectedEntryId === prev.selectedEntryId) return;
    const want = state.openSessionId
      ? formatDeepLink({ sessionId: state.openSessionId, entryId: state.selectedEntryId })
      : '';
    if (win.location.hash === want) return;
    const url = `${win.location.pathname}${win.location.search}${want}`;
    if (state.openSessionId !== prev.openSessionId) win.history.pushState(null, '', url);
    else win.history.replaceState(win.history.state, '', url);
  });
  return () => {
    win.removeEventListener('hashchange', apply);
    unsubscribe();
  };
}
