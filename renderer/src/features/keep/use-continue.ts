/**
 * "Continue in pi" from anywhere (the palette, the keep dialog): the app opens a terminal; serve
 * copies the command. A session folder that is gone is said, with pi's own way out offered
 * (fork into another folder), as pi 1.5.2 does when it resumes such a session.
 */
import { useCallback } from 'react';
import { useActions, useCanopy } from '../../app-context';
import { copyText } from '../../lib/clipboard';

export function useContinueInPi(): (sessionId: string, fork?: boolean) => Promise<void> {
  const actions = useActions();
  const toast = useCanopy((s) => s.showToast);
  const setOffer = useCanopy((s) => s.setContinueOffer);
  return useCallback(
    async (sessionId, fork = false) => {
      const r = await actions.continueInPi(sessionId, fork);
      if ('error' in r) return toast(`Continue in pi: ${r.error.message}`);
      const out = r.data;
      if (out.cwdMissing && !fork) {
        setOffer({ sessionId, cwd: out.cwd });
        return;
      }
      setOffer(null);
      if (out.launched) return toast(`Opened ${out.terminal} in ${out.cwd}`);
      const ok = await copyText(out.command);
      toast(ok ? `Command copied: ${out.command}` : `Run: ${out.command}`);
    },
    [actions, toast, setOffer],
  );
}
