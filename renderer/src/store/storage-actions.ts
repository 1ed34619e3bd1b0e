import type { SlimRequestDto } from '../lib/shared';
import type { ActionContext } from './action-context';

export interface StorageActions {
  /** What a slim copy of one session would remove (nothing is written); null: nothing chosen to remove. */
  previewSlim(request: SlimRequestDto | null): Promise<void>;
  /** Writes the slim copy next to its source (the source stays as it is); the report is read again. */
  writeSlim(request: SlimRequestDto): Promise<void>;
  /** The fork families not written for `staleDays` days, and where the archive would put them. */
  previewArchive(staleDays: number): Promise<void>;
  /** Moves these families to the archive (those written since the preview are kept); the report is read again. */
  archiveFamilies(staleDays: number, familyIds: string[]): Promise<void>;
  /** Drops the archive's preview, result and error (the user cancelled, or the view opened again). */
  clearArchive(): void;
}

export function createStorageActions({ api, s, check, actions }: ActionContext): StorageActions {
  let slimSeq = 0;
  return {
    async previewSlim(request) {
      const mine = ++slimSeq;
      s().setSlim({ preview: null, result: null, error: null });
      if (!request) return;
      const r = check(await api['store.slimPreview'](request));
      // A preview for options the user has changed since is dropped.
      if (mine !== slimSeq) return;
      s().setSlim('data' in r ? { preview: r.data } : { error: r.error.message });
    },
    async writeSlim(request) {
      s().setSlim({ busy: true });
      const r = check(await api['store.slim'](request));
      if ('error' in r) return s().setSlim({ busy: false, error: r.error.message });
      s().setSlim({ busy: false, result: r.data });
      await actions.loadStoreReport(true);
    },
    async previewArchive(staleDays) {
      s().setArchive({ busy: true, result: null });
      const r = check(await api['store.archivePreview']({ staleDays }));
      s().setArchive(
        'data' in r ? { busy: false, error: null, preview: r.data } : { busy: false, error: r.error.message },
      );
    },
    async archiveFamilies(staleDays, familyIds) {
      s().setArchive({ busy: true });
      const r = check(await api['store.archive']({ staleDays, familyIds }));
      if ('error' in r) return s().setArchive({ busy: false, error: r.error.message });
      s().setArchive({ busy: false, result: r.data, preview: null });
      await actions.loadStoreReport(true);
    },
    clearArchive: () => s().setArchive({ preview: null, result: null, error: null }),
  };
}
