/**
 * The store views' facade (docs/architecture.md): usage and storage of the whole store, slim
 * copies, and the journaled archive.
 */
export { archiveFamilies, checkArchiveDir, planArchive, restoreArchive } from './archive';
export type { StorageSplit } from './rules/storage-split';
export { parseGroupKeys, type SpendTotals, type UsageGroup, type UsageGroupKey } from './rules/usage';
export { slimSession } from './slim';
export { storageReport } from './storage-report';
export { StoreService } from './store-service';
export { usageReport } from './usage-report';
