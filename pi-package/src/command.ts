/**
 * `/canopy` opens Canopy at this session's current leaf; `/canopy search <query>` opens its search
 * panel with the query. The launcher is a seam: the app, `canopy serve` + browser, or a test's.
 */
import { dirname } from 'node:path';
import { existsSync } from 'node:fs';
import type { ExtensionAPI, ExtensionCommandContext } from '@earendil-works/pi-coding-agent';
import { appCommand, appLauncher, type Launcher, type OpenRequest } from './launch';
import { serveLauncher } from './serve-launch';
import { SWITCH_WORD, type Offers } from './handback';

type Env = Record<string, string | undefined>;

/** The launcher for this machine: the app when there is one, else `canopy serve` and the browser. */
export function defaultLauncher(env: Env = process.env): Launcher {
  const app = appCommand(env);
  return app ? appLauncher(app) : serveLauncher(env);
}

type SessionView = Pick<
  ExtensionCommandContext['sessionManager'],
  'getSessionId' | 'getLeafId' | 'getSessionFile' | 'getSessionDir'
>;

/** What `/canopy ARGS` asks for, in this session. */
export function openRequest(args: string, sm: SessionView): OpenRequest | { error: string } {
  const words = args.trim();
  const dir = sm.getSessionDir();
  const root = dir ? { root: dirname(dir) } : {};
  if (words === 'search' || words.startsWith('search ')) {
    const query = words.slice('search'.length).trim();
    if (!query) return { error: 'usage: /canopy search <query>' };
    return { target: { kind: 'search', query }, ...root };
  }
  if (words) return { error: 'usage: /canopy   or   /canopy search <query>' };
  // pi writes a session's file with its first reply: before that Canopy has nothing to show.
  const file = sm.getSessionFile();
  if (!file || !existsSync(file)) return { target: { kind: 'app' }, ...root };
  return { target: { kind: 'session', sessionId: sm.getSessionId(), entryId: sm.getLeafId() }, ...root };
}

export function registerCommand(pi: ExtensionAPI, launcher: () => Launcher, offers: Offers): void {
  pi.registerCommand('canopy', {
    description: 'Open Canopy at this session and leaf; /canopy search <query> opens its search',
    getArgumentCompletions: (prefix) =>
      'search'.startsWith(prefix.trim()) ? [{ value: 'search ', label: 'search' }] : null,
    handler: async (args, ctx) => {
      const [word, id] = args.trim().split(/\s+/);
      if (word === SWITCH_WORD && id) return offers.decide(id, ctx);
      const request = openRequest(args, ctx.sessionManager);
      if ('error' in request) {
        ctx.ui.notify(request.error, 'error');
        return;
      }
      try {
        ctx.ui.notify(await launcher().open(request), 'info');
      } catch (err) {
        ctx.ui.notify(`Canopy could not be opened: ${(err as Error).message}`, 'error');
      }
    },
  });
}
