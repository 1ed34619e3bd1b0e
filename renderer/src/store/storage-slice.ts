import type { StateCreator } from 'zustand/vanilla';
import type { ArchivePreviewDto, ArchiveResultDto, SlimPreviewDto, SlimResultDto } from '../lib/shared';
import type { CanopyState } from './index';

/** A slim copy of one session: what it would remove, then what was written. */
export interface SlimState {
  preview: SlimPreviewDto | null;
  result: SlimResultDto | null;
  error: string | null;
  busy: boolean;
}

/** Archiving stale fork families: which would move, then what moved. */
export interface ArchiveState {
  preview: ArchivePreviewDto | null;
  result: ArchiveResultDto | null;
  error: string | null;
  busy: boolean;
}

export interface StorageSlice {
  slim: SlimState;
  archive: ArchiveState;
  setSlim(patch: Partial<SlimState>): void;
  setArchive(patch: Partial<ArchiveState>): void;
}

const EMPTY = { preview: null, result: null, error: null, busy: false };

export const createStorageSlice: StateCreator<CanopyState, [], [], StorageSlice> = (set) => ({
  slim: EMPTY,
  archive: EMPTY,
  setSlim: (patch) => set((state) => ({ slim: { ...state.slim, ...patch } })),
  setArchive: (patch) => set((state) => ({ archive: { ...state.archive, ...patch } })),
});
