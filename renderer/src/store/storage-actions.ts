import type { ArchivePreviewDto, ArchiveResultDto, SlimPreviewDto, SlimRequestDto, SlimResultDto } from '../lib/shared';
import type { ActionContext, Outcome } from './action-context';

export interface StorageActions {
  /** What a slim copy of one session would remove (nothing is written). */
  slimPreview(request: SlimRequestDto): Promise<Outcome<SlimPreviewDto>>;
  /** Writes the slim copy next to its source (the source stays as it is). */
  slim(request: SlimRequestDto): Promise<Outcome<SlimResultDto>>;
  /** The fork families not written for `staleDays` days, and where the archive would put them. */
  archivePreview(staleDays: number): Promise<Outcome<ArchivePreviewDto>>;
  /** Moves these families to the archive (those written since the preview are kept). */
  archive(staleDays: number, familyIds: string[]): Promise<Outcome<ArchiveResultDto>>;
}

export function createStorageActions({ api, check }: ActionContext): StorageActions {
  return {
    slimPreview: async (request) => check(await api['store.slimPreview'](request)),
    slim: async (request) => check(await api['store.slim'](request)),
    archivePreview: async (staleDays) => check(await api['store.archivePreview']({ staleDays })),
    archive: async (staleDays, familyIds) => check(await api['store.archive']({ staleDays, familyIds })),
  };
}
