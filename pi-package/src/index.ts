/**
 * Canopy's pi package: `/canopy` opens the session browser at this session's leaf, and the tools
 * session_search and session_context let the agent recall past sessions. See ../README.md.
 */
import type { ExtensionAPI, ExtensionContext } from '@earendil-works/pi-coding-agent';
import { createOffers, registerHandback } from './handback';
import { canopyRunner, type RunCanopy } from './canopy-cli';
import { registerTools } from './tools';
import { defaultLauncher, registerCommand } from './command';
import type { Launcher } from './launch';

export interface CanopyPiOptions {
  /** Runs the canopy CLI (default: pi.exec of the command canopyCommand finds). */
  run?: RunCanopy;
  /** Opens Canopy for /canopy (default: the app, else `canopy serve` and the browser). */
  launcher?: Launcher;
}

/** The extension, with its seams open (tests pass their own runner and launcher). */
export function canopyExtension(options: CanopyPiOptions = {}) {
  return (pi: ExtensionAPI): void => {
    const run = options.run ?? canopyRunner((command, args, o) => pi.exec(command, args, o));
    registerTools(pi, run);
    // Chosen at first use, then kept: a serve started for this pi is reused.
    let launcher = options.launcher;
    // The session pi is in now (a fork offered by Canopy must be in its folder).
    let current: ExtensionContext | null = null;
    pi.on('session_start', (_event, ctx) => void (current = ctx));
    pi.on('session_shutdown', () => void (current = null));
    const offers = createOffers(pi, () => ({
      sessionDir: current?.sessionManager.getSessionDir() ?? '',
      idle: current?.isIdle() ?? true,
    }));
    registerCommand(pi, () => (launcher ??= defaultLauncher()), offers);
    registerHandback(pi, offers);
  };
}

export default canopyExtension();
