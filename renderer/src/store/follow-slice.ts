import type { StateCreator } from 'zustand/vanilla';
import type { CanopyState } from './index';

/** The middle column: the react-flow canvas, or the indented tree list (pi's /tree) for huge trees. */
export type MiddleView = 'graph' | 'tree';

/** Following a live session's leaf, and what arrived while the user looked elsewhere. */
export interface FollowSlice {
  /** On by default for every opened session; any manual move of the selection pauses it. */
  following: boolean;
  /** The leaf the user last saw while following was paused (entries after it are unread). */
  lastSeenLeafId: string | null;
  middleView: MiddleView;

  setFollowing(following: boolean): void;
  setLastSeenLeaf(id: string | null): void;
  setMiddleView(view: MiddleView): void;
}

export const createFollowSlice: StateCreator<CanopyState, [], [], FollowSlice> = (set) => ({
  following: true,
  lastSeenLeafId: null,
  middleView: 'graph',

  setFollowing: (following) => set(following ? { following, lastSeenLeafId: null } : { following }),
  setLastSeenLeaf: (lastSeenLeafId) => set({ lastSeenLeafId }),
  setMiddleView: (middleView) => set({ middleView }),
});
