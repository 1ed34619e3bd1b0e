import type { ActionContext } from './action-context';

export interface ReportActions {
  /** Asks main for the report (`refresh`: recomputed, after sessions changed). */
  loadStoreReport(refresh?: boolean): Promise<void>;
  /**
   * While a view shows the report: asked now, its background pass followed (store.progress), asked
   * again when the pass ends. Returns the stop.
   */
  followStoreReport(): () => void;
}

export function createReportActions({ api, s, check }: ActionContext): ReportActions {
  let seq = 0;
  async function loadStoreReport(refresh = false) {
    const mine = ++seq;
    const r = check(await api['store.report'](refresh ? { refresh: true } : {}));
    // An older answer that comes after a newer one is dropped.
    if (mine !== seq) return;
    if ('data' in r) s().setStoreReport(r.data);
    else s().setStoreReportError(r.error.message);
  }
  return {
    loadStoreReport,
    followStoreReport() {
      void loadStoreReport();
      return api.on('store.progress', (p) => {
        if (p.state === 'running') s().setStoreReportProgress(p.done, p.total);
        else void loadStoreReport();
      });
    },
  };
}
