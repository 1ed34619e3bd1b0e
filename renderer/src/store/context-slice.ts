import type { StateCreator } from 'zustand/vanilla';
import type { ContextViewDto, ErrorValue, LineageDto } from '../lib/shared';
import type { CanopyState } from './index';

export type RightTab = 'entry' | 'context' | 'transcript';

export interface ContextSlice {
  /** null: follow the profile's current leaf; otherwise the entry the user asked "what if this were the leaf?" for. */
  whatIfLeaf: { entryId: string } | null;
  contextView: ContextViewDto | null;
  contextLoading: boolean;
  contextError: ErrorValue | null;
  /** Sessions linked to the open one by `parentSession`. */
  lineage: LineageDto | null;
  rightTab: RightTab;
  /** Shade graph nodes by their context state. */
  shadeContext: boolean;
  /** Entries to point out on the graph (a compaction's hidden span); seq bumps so the canvas re-fits. */
  highlight: { ids: string[]; seq: number; reason: string } | null;

  setWhatIfLeaf(entryId: string | null): void;
  startContext(): void;
  setContextView(view: ContextViewDto): void;
  setContextError(error: ErrorValue): void;
  setLineage(lineage: LineageDto | null): void;
  setRightTab(tab: RightTab): void;
  setShadeContext(on: boolean): void;
  setHighlight(ids: string[] | null, reason?: string): void;
  /** Everything tied to one open session, dropped when another opens. */
  resetSessionContext(): void;
}

export const createContextSlice: StateCreator<CanopyState, [], [], ContextSlice> = (set) => ({
  whatIfLeaf: null,
  contextView: null,
  contextLoading: false,
  contextError: null,
  lineage: null,
  rightTab: 'entry',
  shadeContext: true,
  highlight: null,

  setWhatIfLeaf: (entryId) => set({ whatIfLeaf: entryId === null ? null : { entryId } }),
  startContext: () => set({ contextLoading: true }),
  setContextView: (contextView) =>
    set((state) =>
      state.openSessionId === contextView.sessionId ? { contextView, contextLoading: false, contextError: null } : {},
    ),
  setContextError: (contextError) => set({ contextError, contextLoading: false }),
  setLineage: (lineage) =>
    set((state) => (lineage === null || lineage.sessionId === state.openSessionId ? { lineage } : {})),
  setRightTab: (rightTab) => set({ rightTab }),
  setShadeContext: (shadeContext) => set({ shadeContext }),
  setHighlight: (ids, reason = '') =>
    set((state) => ({
      highlight: ids === null || ids.length === 0 ? null : { ids, reason, seq: (state.highlight?.seq ?? 0) + 1 },
    })),
  resetSessionContext: () =>
    set({
      whatIfLeaf: null,
      contextView: null,
      contextLoading: false,
      contextError: null,
      lineage: null,
      highlight: null,
    }),
});
