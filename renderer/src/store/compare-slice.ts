import type { StateCreator } from 'zustand/vanilla';
import type { CompareDto } from '../lib/shared';
import type { CanopyState } from './index';

/** Main's answer to "compare two branches" (the picker's choices stay in the panel). */
export interface ComparisonState {
  result: CompareDto | null;
  error: string | null;
  busy: boolean;
}

export interface CompareSlice {
  comparison: ComparisonState;
  setComparison(patch: Partial<ComparisonState>): void;
}

export const createCompareSlice: StateCreator<CanopyState, [], [], CompareSlice> = (set) => ({
  comparison: { result: null, error: null, busy: false },
  setComparison: (patch) => set((state) => ({ comparison: { ...state.comparison, ...patch } })),
});
