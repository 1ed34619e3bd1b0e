import type { StateCreator } from 'zustand/vanilla';
import type { EntryDetailDto, ErrorValue } from '../lib/shared';
import type { CanopyState } from './index';

export interface SelectionSlice {
  selectedEntryId: string | null;
  detail: EntryDetailDto | null;
  detailLoading: boolean;
  detailError: ErrorValue | null;

  select(entryId: string | null): void;
  setDetail(detail: EntryDetailDto): void;
  setDetailError(error: ErrorValue): void;
}

export const createSelectionSlice: StateCreator<CanopyState, [], [], SelectionSlice> = (set) => ({
  selectedEntryId: null,
  detail: null,
  detailLoading: false,
  detailError: null,

  select: (selectedEntryId) =>
    set((state) =>
      state.selectedEntryId === selectedEntryId
        ? {}
        : { selectedEntryId, detail: null, detailError: null, detailLoading: selectedEntryId !== null, forkMode: null, forkError: null },
    ),
  setDetail: (detail) =>
    set((state) =>
      state.selectedEntryId === detail.entryId && state.openSessionId === detail.sessionId
        ? { detail, detailLoading: false, detailError: null }
        : {},
    ),
  setDetailError: (detailError) => set({ detailError, detailLoading: false }),
});
