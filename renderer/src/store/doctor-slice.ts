import type { StateCreator } from 'zustand/vanilla';
import type { DoctorReportDto, DoctorStoreDto } from '../lib/shared';
import type { CanopyState } from './index';

/** The doctor's report on one session, then what its repair wrote. */
export interface DoctorReportState {
  report: DoctorReportDto | null;
  error: string | null;
  busy: boolean;
}

export interface DoctorSlice {
  /** Whether the open session's Doctor dialog shows (the palette and the session's button open it). */
  doctorOpen: boolean;
  /** Per session id: its report (the Doctor dialog) or its repair (the store view). */
  doctorReports: Record<string, DoctorReportState>;
  /** The pass over every listed session, as main last answered it. */
  doctorStore: DoctorStoreDto | null;
  doctorStoreError: string | null;

  setDoctorOpen(open: boolean): void;
  setDoctorReport(sessionId: string, patch: Partial<DoctorReportState>): void;
  setDoctorStore(report: DoctorStoreDto): void;
  setDoctorStoreError(error: string): void;
  /** A running pass's progress, on the report already shown. */
  setDoctorStoreProgress(done: number, total: number): void;
}

export const NO_DOCTOR_REPORT: DoctorReportState = { report: null, error: null, busy: false };

export const createDoctorSlice: StateCreator<CanopyState, [], [], DoctorSlice> = (set) => ({
  doctorOpen: false,
  doctorReports: {},
  doctorStore: null,
  doctorStoreError: null,

  setDoctorOpen: (doctorOpen) => set({ doctorOpen }),
  setDoctorReport: (sessionId, patch) =>
    set((state) => ({
      doctorReports: {
        ...state.doctorReports,
        [sessionId]: { ...(state.doctorReports[sessionId] ?? NO_DOCTOR_REPORT), ...patch },
      },
    })),
  setDoctorStore: (doctorStore) => set({ doctorStore, doctorStoreError: null }),
  setDoctorStoreError: (doctorStoreError) => set({ doctorStoreError }),
  setDoctorStoreProgress: (done, total) =>
    set((state) => (state.doctorStore ? { doctorStore: { ...state.doctorStore, state: 'running', done, total } } : {})),
});
