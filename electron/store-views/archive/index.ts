/**
 * The archive wing: stale fork families moved whole out of the roots and back, as a journaled,
 * resumable operation (kill -9 at any moment leaves every file restorable, none duplicated).
 * Its default destination is in Canopy's data folder (never the cache, which may be thrown away).
 */
import { join } from 'node:path';

export { archiveFamilies, destinationOutside, type ArchiveRequest } from './archive-op';
export { restoreArchive, resumeArchive, type RestoreRequest } from './restore-op';
export { ArchiveError, readPendingJournal, type ArchiveErrorCode } from './storage/journal';
export { MANIFEST, type Manifest } from './manifest-rules';
export type { FamilyOutcome } from './run';
export { setStepHook } from './crash-points';

/** Where archived families go unless the user says otherwise. */
export const defaultArchiveDir = (dataDir: string): string => join(dataDir, 'archive');
export { planArchive, type ArchivePlan, type ArchivePlanFamily } from './plan';
