import type { ExportRequestDto, ExportWriteDto } from '../lib/shared';
import type { ActionContext } from './action-context';

export interface ExportActions {
  openExport(): void;
  closeExport(): void;
  /** Asks what the export would hold and every replacement redaction makes (nothing is written). */
  previewExport(request: ExportRequestDto): Promise<void>;
  /**
   * Writes the export (Electron: main asks where; serve: the content comes back for the caller to
   * download), then reads the ledger again. The answer, or null on an error (kept in the store).
   */
  writeExport(request: ExportRequestDto): Promise<ExportWriteDto | null>;
  /** What was shared before (left as it was when it cannot be read). */
  loadExportLedger(): Promise<void>;
}

export function createExportActions({ api, s, check }: ActionContext): ExportActions {
  let previewSeq = 0;
  const set = (patch: Parameters<ReturnType<typeof s>['setExporting']>[0]) => s().setExporting(patch);
  async function loadExportLedger() {
    const r = check(await api['export.ledger']({}));
    if ('data' in r) set({ ledger: r.data });
  }
  return {
    openExport: () => set({ open: true }),
    closeExport: () => set({ open: false }),
    async previewExport(request) {
      const mine = ++previewSeq;
      set({ preview: null, error: null, result: null });
      const r = check(await api['export.preview'](request));
      // A preview for a form the user has changed since is dropped.
      if (mine !== previewSeq) return;
      set('data' in r ? { preview: r.data } : { error: r.error.message });
    },
    loadExportLedger,
    async writeExport(request) {
      set({ writing: true });
      const r = check(await api['export.write'](request));
      if ('error' in r) {
        set({ writing: false, error: r.error.message });
        return null;
      }
      set({ writing: false, result: r.data });
      await loadExportLedger();
      return r.data;
    },
  };
}
