/**
 * The doctor's pass over the store: asked for when the view opens, filled in the background in
 * main (doctor.progress events), asked again when the pass ends.
 */
import { useCallback, useEffect, useState } from 'react';
import { useServices } from '../app-context';
import type { DoctorStoreDto } from './shared';

export function useDoctorStore(): { report: DoctorStoreDto | null; error: string | null; refresh(): void } {
  const { api } = useServices();
  const [report, setReport] = useState<DoctorStoreDto | null>(null);
  const [error, setError] = useState<string | null>(null);
  const ask = useCallback(
    (refresh: boolean) =>
      void api['doctor.store'](refresh ? { refresh: true } : {}).then((r) => {
        if (r.ok) {
          setReport(r.data);
          setError(null);
        } else setError(r.error.message);
      }),
    [api],
  );
  useEffect(() => {
    ask(false);
    return api.on('doctor.progress', (p) => {
      if (p.state === 'running') setReport((r) => (r ? { ...r, state: 'running', done: p.done, total: p.total } : r));
      else ask(false);
    });
  }, [api, ask]);
  return { report, error, refresh: () => ask(true) };
}
