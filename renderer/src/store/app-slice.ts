import type { StateCreator } from 'zustand/vanilla';
import type { AppInfo, ErrorValue } from '../lib/shared';
import type { CanopyState } from './index';

export interface AppSlice {
  appInfo: AppInfo | null;
  /** An error that blocks the whole app (for example a refused token). */
  fatalError: ErrorValue | null;
  /** Live-update stream state (serve mode). */
  streamState: 'idle' | 'connected' | 'retrying' | 'refused';
  toast: { text: string; seq: number } | null;

  setAppInfo(info: AppInfo): void;
  setFatalError(error: ErrorValue | null): void;
  setStreamState(state: AppSlice['streamState']): void;
  showToast(text: string): void;
}

export const createAppSlice: StateCreator<CanopyState, [], [], AppSlice> = (set) => ({
  appInfo: null,
  fatalError: null,
  streamState: 'idle',
  toast: null,

  setAppInfo: (appInfo) => set({ appInfo }),
  setFatalError: (fatalError) => set({ fatalError }),
  setStreamState: (streamState) => set({ streamState }),
  showToast: (text) => set((state) => ({ toast: { text, seq: (state.toast?.seq ?? 0) + 1 } })),
});
