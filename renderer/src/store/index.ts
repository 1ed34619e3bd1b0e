import { createStore, type StoreApi } from 'zustand/vanilla';
import { createAppSlice, type AppSlice } from './app-slice';
import { createContextSlice, type ContextSlice } from './context-slice';
import { createForkSlice, type ForkSlice } from './fork-slice';
import { createGraphSlice, type GraphSlice } from './graph-slice';
import { createSelectionSlice, type SelectionSlice } from './selection-slice';
import { createSessionsSlice, type SessionsSlice } from './sessions-slice';
import { createSettingsSlice, type SettingsSlice } from './settings-slice';
import { createUiSlice, type UiSlice } from './ui-slice';

export type CanopyState = AppSlice & SessionsSlice & GraphSlice & SelectionSlice & SettingsSlice & ContextSlice & ForkSlice & UiSlice;
export type CanopyStore = StoreApi<CanopyState>;

/** A fresh store (one per app; tests make their own). */
export function createCanopyStore(): CanopyStore {
  return createStore<CanopyState>()((...a) => ({
    ...createAppSlice(...a),
    ...createSessionsSlice(...a),
    ...createGraphSlice(...a),
    ...createSelectionSlice(...a),
    ...createSettingsSlice(...a),
    ...createContextSlice(...a),
    ...createForkSlice(...a),
    ...createUiSlice(...a),
  }));
}

export type { SessionSort } from './sessions-slice';
export type { MinimapChoice, ThemeChoice } from './ui-slice';
export type { RightTab } from './context-slice';
export type { ForkMode, ForkOutcome, ForkPreviewState } from './fork-slice';
