import type { StateCreator } from 'zustand/vanilla';
import type { KeepRecordDto, TrashRecordDto } from '../lib/shared';
import type { CanopyState } from './index';

/** Canopy's own records of sessions (names, tags, pins, notes) and what it trashed; main owns both. */
export interface KeepSlice {
  /** By session id, as main last said (keep.get, then keep.changed events). */
  keep: Record<string, KeepRecordDto>;
  /** The list's choice: '' every session, 'pinned', or 'tag:<tag>'. */
  sessionOnly: string;
  trashed: TrashRecordDto[];

  setKeep(records: Record<string, KeepRecordDto>): void;
  /** One record changed (null: cleared). */
  patchKeep(sessionId: string, record: KeepRecordDto | null): void;
  setSessionOnly(only: string): void;
  setTrashed(records: TrashRecordDto[]): void;
}

export const createKeepSlice: StateCreator<CanopyState, [], [], KeepSlice> = (set) => ({
  keep: {},
  sessionOnly: '',
  trashed: [],

  setKeep: (keep) => set({ keep }),
  patchKeep: (sessionId, record) =>
    set((state) => {
      const keep = { ...state.keep };
      if (record) keep[sessionId] = record;
      else delete keep[sessionId];
      return { keep };
    }),
  setSessionOnly: (sessionOnly) => set({ sessionOnly }),
  setTrashed: (trashed) => set({ trashed }),
});
