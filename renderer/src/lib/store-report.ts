/**
 * The whole-store report (Usage and Storage views): asked for when a view opens, filled in the
 * background in main (store.progress events), asked again when the pass ends.
 */
import { useCallback, useEffect, useState } from 'react';
import { useServices } from '../app-context';
import type { StoreReportDto } from './shared';

export interface StoreReportState {
  report: StoreReportDto | null;
  error: string | null;
  /** Recomputes (after sessions changed). */
  refresh(): void;
}

export function useStoreReport(active: boolean): StoreReportState {
  const { api } = useServices();
  const [report, setReport] = useState<StoreReportDto | null>(null);
  const [error, setError] = useState<string | null>(null);
  const ask = useCallback(
    (refresh: boolean) =>
      void api['store.report'](refresh ? { refresh: true } : {}).then((r) => {
        if (r.ok) {
          setReport(r.data);
          setError(null);
        } else setError(r.error.message);
      }),
    [api],
  );
  useEffect(() => {
    if (!active) return;
    ask(false);
    return api.on('store.progress', (p) => {
      if (p.state === 'running') setReport((r) => (r ? { ...r, state: 'running', done: p.done, total: p.total } : r));
      else ask(false);
    });
  }, [active, api, ask]);
  return { report, error, refresh: () => ask(true) };
}
