import type { StateCreator } from 'zustand/vanilla';
import type { ExportPreviewDto, ExportWriteDto, LedgerEntryDto } from '../lib/shared';
import type { CanopyState } from './index';

/** The export dialog and main's answers to it (the form's choices stay in the dialog). */
export interface ExportState {
  /** Open from the palette, the session's Share button or the dialog itself. */
  open: boolean;
  /** What the export would hold (null while it is asked for). */
  preview: ExportPreviewDto | null;
  /** The last write's answer (null before one, or once the form changed). */
  result: ExportWriteDto | null;
  error: string | null;
  writing: boolean;
  /** What was shared before. */
  ledger: LedgerEntryDto[];
}

export interface ExportSlice {
  exporting: ExportState;
  setExporting(patch: Partial<ExportState>): void;
}

export const createExportSlice: StateCreator<CanopyState, [], [], ExportSlice> = (set) => ({
  exporting: { open: false, preview: null, result: null, error: null, writing: false, ledger: [] },
  setExporting: (patch) => set((state) => ({ exporting: { ...state.exporting, ...patch } })),
});
