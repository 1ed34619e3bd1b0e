import type { ActionContext } from './action-context';
import { backgroundPass } from './background-pass';

export interface ReportActions {
  /** Asks main for the report (`refresh`: recomputed, after sessions changed). */
  loadStoreReport(refresh?: boolean): Promise<void>;
  /**
   * While a view shows the report: asked now, its background pass followed (store.progress), asked
   * again when the pass ends. Returns the stop.
   */
  followStoreReport(): () => void;
}

export function createReportActions(ctx: ActionContext): ReportActions {
  const { s } = ctx;
  const pass = backgroundPass(ctx, 'store.report', 'store.progress', {
    data: (report) => s().setStoreReport(report),
    error: (message) => s().setStoreReportError(message),
    progress: (done, total) => s().setStoreReportProgress(done, total),
  });
  return { loadStoreReport: pass.load, followStoreReport: pass.follow };
}
