import type { StateCreator } from 'zustand/vanilla';
import type { EntryPreviewDto, ErrorValue, Events, SessionGraphDto } from '../lib/shared';
import type { CanopyState } from './index';
import { swapSearch } from './settings-slice';

export interface GraphSlice {
  openSessionId: string | null;
  graph: SessionGraphDto | null;
  opening: boolean;
  /** How far the running open got (main reports it once an open takes a while). */
  openProgress: Events['session.progress'] | null;
  /** How far the flags pass (session.flags, after the first frame of a `pending` graph) got. */
  flagsProgress: Events['session.progress'] | null;
  openError: ErrorValue | null;
  /** Start ids of collapsed runs the user expanded (per open session). */
  expandedChains: Record<string, true>;
  /** The keyboard cursor: a drawn node id (entry id or chain id). */
  cursorId: string | null;
  /** Bumped to ask the canvas to centre on a node (the value is the node to centre). */
  focusRequest: { nodeId: string; seq: number } | null;
  /** Bumped to ask the canvas to fit the whole drawing. */
  fitRequest: number;
  /** Previews read for the nodes drawn while the graph is `pending` (session.previews). */
  lazyPreviews: Record<string, EntryPreviewDto>;

  startOpening(sessionId: string): void;
  setGraph(graph: SessionGraphDto): void;
  setOpenProgress(progress: Events['session.progress']): void;
  setOpenError(error: ErrorValue): void;
  closeSession(): void;
  expandChain(startId: string): void;
  collapseAllChains(): void;
  setCursor(id: string | null): void;
  requestFocus(nodeId: string): void;
  requestFit(): void;
  addPreviews(sessionId: string, previews: Record<string, EntryPreviewDto>): void;
}

/** State of other slices that belongs to one open session. */
const SESSION_SCOPED = {
  whatIfLeaf: null,
  contextView: null,
  contextLoading: false,
  contextError: null,
  lineage: null,
  highlight: null,
  forkMode: null,
  forkPreview: null,
  forkError: null,
} satisfies Partial<CanopyState>;

export const createGraphSlice: StateCreator<CanopyState, [], [], GraphSlice> = (set) => ({
  openSessionId: null,
  graph: null,
  opening: false,
  openProgress: null,
  flagsProgress: null,
  openError: null,
  expandedChains: {},
  cursorId: null,
  focusRequest: null,
  fitRequest: 0,
  lazyPreviews: {},

  startOpening: (sessionId) =>
    set((state) =>
      state.openSessionId === sessionId
        ? { opening: true, openProgress: null, flagsProgress: null, openError: null }
        : {
            ...swapSearch(state, sessionId),
            openSessionId: sessionId,
            opening: true,
            openProgress: null,
            flagsProgress: null,
            openError: null,
            graph: null,
            expandedChains: {},
            cursorId: null,
            lazyPreviews: {},
            ...SESSION_SCOPED,
          },
    ),
  setGraph: (graph) =>
    set((state) =>
      state.openSessionId === graph.sessionId
        ? {
            graph,
            opening: false,
            openProgress: null,
            openError: null,
            ...(graph.pending ? {} : { lazyPreviews: {}, flagsProgress: null }),
          }
        : {},
    ),
  // Progress after the first frame of a pending graph is the flags pass's.
  setOpenProgress: (progress) =>
    set((state) =>
      state.openSessionId !== progress.sessionId
        ? {}
        : state.opening
          ? { openProgress: progress }
          : state.graph?.pending
            ? { flagsProgress: progress }
            : {},
    ),
  setOpenError: (openError) => set({ openError, opening: false, openProgress: null }),
  closeSession: () =>
    set((state) => ({
      ...swapSearch(state, null),
      openSessionId: null,
      graph: null,
      opening: false,
      openProgress: null,
      flagsProgress: null,
      openError: null,
      expandedChains: {},
      cursorId: null,
      lazyPreviews: {},
      ...SESSION_SCOPED,
    })),
  expandChain: (startId) => set((state) => ({ expandedChains: { ...state.expandedChains, [startId]: true } })),
  collapseAllChains: () => set({ expandedChains: {} }),
  setCursor: (cursorId) => set({ cursorId }),
  addPreviews: (sessionId, previews) =>
    set((state) =>
      state.openSessionId === sessionId && state.graph?.pending
        ? { lazyPreviews: { ...state.lazyPreviews, ...previews } }
        : {},
    ),
  requestFocus: (nodeId) => set((state) => ({ focusRequest: { nodeId, seq: (state.focusRequest?.seq ?? 0) + 1 } })),
  requestFit: () => set((state) => ({ fitRequest: state.fitRequest + 1 })),
});
