/** What fills the disk (storage-split.ts), read family by family (store-walk.ts). */
import { StorageAccumulator, type StorageOptions, type StorageReport } from './rules/storage-split';
import { walkFamilies, type WalkOptions, type WalkResult } from './store-walk';

export async function storageReport(
  roots: readonly string[],
  opts: StorageOptions,
  walk: WalkOptions = {},
): Promise<StorageReport & { walk: WalkResult }> {
  const acc = new StorageAccumulator(opts);
  const result = await walkFamilies(roots, (members, _infos, parentOf) => acc.addFamily(members, parentOf), walk);
  return { ...acc.report(), walk: result };
}
