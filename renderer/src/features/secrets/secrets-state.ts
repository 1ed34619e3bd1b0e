/**
 * The radar's state the sessions list and the open session share: findings counts per session and
 * the scan's progress. Its own small store (one per app): markers in thousands of rows subscribe
 * to one count each.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Api, Events } from '../../lib/shared';

export interface SecretsState {
  counts: Record<string, number>;
  status: Events['secrets.progress'] | null;
}

export const secretsStore: StoreApi<SecretsState> = createStore<SecretsState>(() => ({ counts: {}, status: null }));

/** Counts are asked again at most this often while a scan runs (and once at its end). */
const REFRESH_MS = 1500;

/** Follows the radar: counts now, again while the scan goes on, and when it ends. Returns the stop. */
export function followSecrets(api: Api): () => void {
  let last = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  const refresh = () => {
    last = Date.now();
    void api['secrets.counts']({}).then((r) => {
      if (!stopped && r.ok) secretsStore.setState({ counts: r.data });
    });
  };
  const off = api.on('secrets.progress', (status) => {
    secretsStore.setState({ status });
    if (timer) clearTimeout(timer);
    if (!status.scanning) return refresh();
    const wait = Math.max(0, REFRESH_MS - (Date.now() - last));
    timer = setTimeout(refresh, wait);
  });
  void api['secrets.status']({}).then((r) => {
    if (!stopped && r.ok) secretsStore.setState({ status: r.data });
  });
  refresh();
  return () => {
    stopped = true;
    off();
    if (timer) clearTimeout(timer);
  };
}
