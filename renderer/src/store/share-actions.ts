import type { RedactionsDto, SessionSecretsDto } from '../lib/shared';
import type { ActionContext, Outcome } from './action-context';

/** Counts are asked again at most this often while a scan runs (and once at its end). */
const REFRESH_MS = 1500;

export interface ShareActions {
  /** Follows the radar: counts now, again while the scan goes on, and when it ends. Returns the stop. */
  followSecrets(): () => void;
  /** The findings of one session, their values masked. */
  sessionSecrets(sessionId: string): Promise<Outcome<SessionSecretsDto>>;
  /** The value of one finding (its index in sessionSecrets), asked for only when the user reveals it. */
  revealSecret(sessionId: string, index: number): Promise<Outcome<string>>;
  /** The user's own redactions. */
  redactions(): Promise<Outcome<RedactionsDto>>;
  /** Saves the user's own redactions; the answer is what main kept. */
  saveRedactions(redactions: RedactionsDto): Promise<Outcome<RedactionsDto>>;
}

export function createShareActions({ api, s, check }: ActionContext): ShareActions {
  function followSecrets() {
    let last = 0;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let stopped = false;
    const refresh = () => {
      last = Date.now();
      void api['secrets.counts']({}).then((r) => {
        if (!stopped && r.ok) s().setSecretCounts(r.data);
      });
    };
    const off = api.on('secrets.progress', (status) => {
      s().setSecretsStatus(status);
      if (timer) clearTimeout(timer);
      if (!status.scanning) return refresh();
      const wait = Math.max(0, REFRESH_MS - (Date.now() - last));
      timer = setTimeout(refresh, wait);
    });
    void api['secrets.status']({}).then((r) => {
      if (!stopped && r.ok) s().setSecretsStatus(r.data);
    });
    refresh();
    return () => {
      stopped = true;
      off();
      if (timer) clearTimeout(timer);
    };
  }

  return {
    followSecrets,
    sessionSecrets: async (sessionId) => check(await api['secrets.session']({ sessionId })),
    async revealSecret(sessionId, index) {
      const r = check(await api['secrets.reveal']({ sessionId, index }));
      return 'data' in r ? { data: r.data.value } : r;
    },
    redactions: async () => check(await api['redactions.get']({})),
    saveRedactions: async (redactions) => check(await api['redactions.set'](redactions)),
  };
}
