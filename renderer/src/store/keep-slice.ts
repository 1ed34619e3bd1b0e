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
  /** Which keep dialog is open, and for which session (the palette, the keys and the list share it). */
  keepDialog: KeepDialogState;
  /** A session whose folder is gone, waiting for the user's choice (fork elsewhere, or cancel). */
  continueOffer: { sessionId: string; cwd: string } | null;

  setKeep(records: Record<string, KeepRecordDto>): void;
  /** One record changed (null: cleared). */
  patchKeep(sessionId: string, record: KeepRecordDto | null): void;
  setSessionOnly(only: string): void;
  setTrashed(records: TrashRecordDto[]): void;
  setKeepDialog(state: KeepDialogState): void;
  setContinueOffer(offer: { sessionId: string; cwd: string } | null): void;
}

export type KeepDialogState =
  { open: null } | { open: 'keep'; sessionId: string; focus?: 'name' | 'tags' | 'trash' } | { open: 'trash' };

export const createKeepSlice: StateCreator<CanopyState, [], [], KeepSlice> = (set) => ({
  keep: {},
  sessionOnly: '',
  trashed: [],
  keepDialog: { open: null },
  continueOffer: null,

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
  setKeepDialog: (keepDialog) => set({ keepDialog }),
  setContinueOffer: (continueOffer) => set({ continueOffer }),
});
