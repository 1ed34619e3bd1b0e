import type { StateCreator } from 'zustand/vanilla';
import type { StoreReportDto } from '../lib/shared';
import type { CanopyState } from './index';

/** The whole-store report (Usage and Storage views), as main last answered it. */
export interface ReportSlice {
  storeReport: StoreReportDto | null;
  /** Why the last ask failed (the report shown stays the last good one). */
  storeReportError: string | null;

  setStoreReport(report: StoreReportDto): void;
  setStoreReportError(error: string): void;
  /** A running pass's progress, on the report already shown. */
  setStoreReportProgress(done: number, total: number): void;
}

export const createReportSlice: StateCreator<CanopyState, [], [], ReportSlice> = (set) => ({
  storeReport: null,
  storeReportError: null,

  setStoreReport: (storeReport) => set({ storeReport, storeReportError: null }),
  setStoreReportError: (storeReportError) => set({ storeReportError }),
  setStoreReportProgress: (done, total) =>
    set((state) => (state.storeReport ? { storeReport: { ...state.storeReport, state: 'running', done, total } } : {})),
});
