import { createStore, type StoreApi } from 'zustand/vanilla';
import { createAppSlice, type AppSlice } from './app-slice';
import { createGraphSlice, type GraphSlice } from './graph-slice';
import { createSelectionSlice, type SelectionSlice } from './selection-slice';
import { createSessionsSlice, type SessionsSlice } from './sessions-slice';
import { createSettingsSlice, type SettingsSlice } from './settings-slice';

export type CanopyState = AppSlice & SessionsSlice & GraphSlice & SelectionSlice & SettingsSlice;
export type CanopyStore = StoreApi<CanopyState>;

/** A fresh store (one per app; tests make their own). */
export function createCanopyStore(): CanopyStore {
  return createStore<CanopyState>()((...a) => ({
    ...createAppSlice(...a),
    ...createSessionsSlice(...a),
    ...createGraphSlice(...a),
    ...createSelectionSlice(...a),
    ...createSettingsSlice(...a),
  }));
}

export type { SessionSort } from './sessions-slice';
