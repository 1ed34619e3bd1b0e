import type { ActionContext } from './action-context';

export interface FollowActions {
  /** Turns following on again: the selection and the view go to the leaf, nothing is unread. */
  resumeFollow(): void;
  /** A manual move (a click, a key, a scroll of the transcript): following pauses. */
  pauseFollow(): void;
}

/**
 * Watches the open session: when a reload moves its leaf, a following view selects the new leaf
 * (the graph centres it, the transcript scrolls to it); a paused one remembers the leaf the user
 * saw, so what arrived since can be marked. Selecting anything but the leaf pauses.
 */
export function createFollowActions({ store, s, actions }: ActionContext): FollowActions {
  /** The entry the follower itself selected last (its selection is not a manual move). */
  let followed: string | null = null;

  store.subscribe((state, prev) => {
    if (state.openSessionId !== prev.openSessionId) {
      followed = null;
      if (!state.following || state.lastSeenLeafId !== null) store.setState({ following: true, lastSeenLeafId: null });
      return;
    }
    const graph = state.graph;
    const before = prev.graph;
    if (graph && before && graph !== before && graph.leafId && graph.leafId !== before.leafId) {
      if (state.following) {
        followed = graph.leafId;
        actions.selectEntry(graph.leafId, { focus: true });
        return;
      }
      if (state.lastSeenLeafId === null && before.leafId) state.setLastSeenLeaf(before.leafId);
    }
    const sel = state.selectedEntryId;
    if (state.following && sel !== prev.selectedEntryId && sel !== null && sel !== followed && sel !== graph?.leafId)
      state.setFollowing(false);
  });

  function resumeFollow() {
    s().setFollowing(true);
    const leaf = s().graph?.leafId;
    if (!leaf) return;
    followed = leaf;
    actions.selectEntry(leaf, { focus: true });
  }

  function pauseFollow() {
    if (s().following) s().setFollowing(false);
  }

  return { resumeFollow, pauseFollow };
}
