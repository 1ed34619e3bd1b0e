/** The whole-store report for a view that shows it: followed while the view is mounted (the store's report actions). */
import { useEffect } from 'react';
import { useActions, useCanopy } from '../app-context';
import type { StoreReportDto } from './shared';

export function useStoreReport(): { report: StoreReportDto | null; error: string | null; refresh: () => void } {
  const actions = useActions();
  useEffect(() => actions.followStoreReport(), [actions]);
  const report = useCanopy((s) => s.storeReport);
  const error = useCanopy((s) => s.storeReportError);
  return { report, error, refresh: () => void actions.loadStoreReport(true) };
}
