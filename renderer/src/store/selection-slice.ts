import type { StateCreator } from 'zustand/vanilla';
import type { EntryDetailDto, ErrorValue } from '../lib/shared';
import type { CanopyState } from './index';

export interface SelectionSlice {
  selectedEntryId: string | null;
  detail: EntryDetailDto | null;
  detailLoading: boolean;
  detailError: ErrorValue | null;
  /** Text to mark in the inspector when this entry is shown (the search hit that opened it). */
  mark: { sessionId: string; entryId: string; text: string } | null;

  setMark(mark: SelectionSlice['mark']): void;
  select(entryId: string | null): void;
  setDetail(detail: EntryDetailDto): void;
  setDetailError(error: ErrorValue): void;
}

export const createSelectionSlice: StateCreator<CanopyState, [], [], SelectionSlice> = (set) => ({
  selectedEntryId: null,
  detail: null,
  detailLoading: false,
  detailError: null,
  mark: null,

  setMark: (mark) => set({ mark }),
  select: (selectedEntryId) =>
    set((state) =>
      state.selectedEntryId === selectedEntryId
        ? {}
        : {
            selectedEntryId,
            detail: null,
            detailError: null,
            detailLoading: selectedEntryId !== null,
            forkMode: null,
            forkError: null,
          },
    ),
  setDetail: (detail) =>
    set((state) =>
      state.selectedEntryId === detail.entryId && state.openSessionId === detail.sessionId
        ? { detail, detailLoading: false, detailError: null }
        : {},
    ),
  setDetailError: (detailError) => set({ detailError, detailLoading: false }),
});
