/**
 * The store views' facade (docs/architecture.md): usage and storage of the whole store, slim
 * copies, and the journaled archive.
 */
export {
  archiveFamilies,
  ArchiveError,
  defaultArchiveDir,
  destinationOutside,
  planArchive,
  readPendingJournal,
  restoreArchive,
  resumeArchive,
  MANIFEST,
  type ArchivePlan,
  type ArchiveRequest,
  type FamilyOutcome,
  type Manifest,
  type RestoreRequest,
} from './archive';
export type { StorageSplit } from './rules/storage-split';
export {
  parseGroupKeys,
  USAGE_GROUP_KEYS,
  USAGE_SCHEMA_VERSION,
  type SpendTotals,
  type UsageGroup,
  type UsageGroupKey,
} from './rules/usage';
export { utcDay } from './rules/store-families';
export { FactReader } from './rules/store-facts';
export { slimSession } from './slim';
export { storageReport } from './storage-report';
export { StoreService } from './store-service';
export { usageReport } from './usage-report';
