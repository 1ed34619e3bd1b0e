/**
 * Forks handed back live: while pi runs with a UI, Canopy may offer it a fork it just wrote; pi
 * asks the user and switches (pi's own switchSession) only on yes. No UI, no channel: consent
 * cannot be asked. Only a session file in this session's folder is offered through.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { ExtensionAPI, ExtensionCommandContext } from '@earendil-works/pi-coding-agent';
import { handbackDir, startHandback, type Handback, type OfferReply } from './handback-channel';

/** `/canopy switch <offer id>`: how an offer reaches a command context (switchSession lives there). */
export const SWITCH_WORD = 'switch';

export interface Offers {
  /** Checks and queues an offer; pi then runs `/canopy switch <id>`. */
  offer(path: string): Promise<OfferReply>;
  /** The `/canopy switch <id>` handler: asks, then switches on yes. */
  decide(id: string, ctx: ExtensionCommandContext): Promise<void>;
}

export function createOffers(pi: ExtensionAPI, where: () => { sessionDir: string; idle: boolean }): Offers {
  const pending = new Map<string, string>();
  return {
    async offer(path) {
      const here = where();
      const file = resolve(path);
      if (!isAbsolute(path) || !file.endsWith('.jsonl')) return { ok: false, status: 'not a session file' };
      if (!here.sessionDir || dirname(file) !== resolve(here.sessionDir))
        return { ok: false, status: "not in this pi's session folder" };
      if (!existsSync(file) || !statSync(file).isFile()) return { ok: false, status: 'no such file' };
      const id = randomBytes(8).toString('hex');
      pending.set(id, file);
      pi.sendUserMessage(`/canopy ${SWITCH_WORD} ${id}`, {
        expandPromptTemplates: true,
        ...(here.idle ? {} : { deliverAs: 'followUp' as const }),
      });
      return { ok: true, status: 'asked' };
    },
    async decide(id, ctx) {
      const file = pending.get(id);
      pending.delete(id);
      if (!file) return ctx.ui.notify('No such offer from Canopy (it was answered already).', 'warning');
      const yes = await ctx.ui.confirm(
        'Canopy wrote a fork',
        `Switch this pi to ${basename(file)}? It continues there; this session stays as it is.\n${file}`,
      );
      if (!yes) return ctx.ui.notify('Stayed in this session.', 'info');
      await ctx.switchSession(file);
    },
  };
}

/** Opens the channel with each session that has a UI, and closes it with the session. */
export function registerHandback(
  pi: ExtensionAPI,
  offers: Offers,
  env: Record<string, string | undefined> = process.env,
): void {
  let open: Handback | null = null;
  pi.on('session_start', async (_event, ctx) => {
    if (!ctx.hasUI) return;
    try {
      open = await startHandback({
        dir: handbackDir(env),
        sessionFile: ctx.sessionManager.getSessionFile() ?? null,
        cwd: ctx.cwd,
        offer: (path) => offers.offer(path),
      });
    } catch (err) {
      ctx.ui.notify(`Canopy cannot hand forks back to this pi: ${(err as Error).message}`, 'warning');
    }
  });
  pi.on('session_shutdown', async () => {
    const closing = open;
    open = null;
    await closing?.close();
  });
}
