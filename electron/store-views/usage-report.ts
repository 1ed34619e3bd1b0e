/** Spend over the whole store (usage.ts), read family by family (store-walk.ts). */
import { UsageAccumulator, type UsageOptions, type UsageReport } from './rules/usage';
import { walkFamilies, type WalkOptions, type WalkResult } from './store-walk';

export async function usageReport(
  roots: readonly string[],
  opts: UsageOptions,
  walk: WalkOptions = {},
): Promise<UsageReport & { walk: WalkResult }> {
  const acc = new UsageAccumulator(opts);
  const result = await walkFamilies(roots, (members) => acc.addFamily(members), { ...walk, blocks: false });
  return { ...acc.report(), walk: result };
}
