/**
 * The continue wing's facade: back to pi from a session. In the app it opens the user's terminal
 * in the session's folder running `pi --session FILE`; in `canopy serve` (the browser cannot start
 * programs) it answers the command to copy. A folder that is gone is said, with pi's own way out
 * (fork into another folder: `pi --fork FILE`).
 */
import { homedir } from 'node:os';
import { statPath } from '../storage/stat';
import { CanopyError } from '../shared/errors';
import type { ContinueResultDto } from '../shared/keep-dto';
import { commandLine, launchPlan, piArgv, terminalFor, type LaunchPlan } from './rules';
import { launch } from './launch';

export interface ContinueOptions {
  /** Start a terminal (the app) or only answer the command (serve). */
  launches: boolean;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Where a fork goes when the session's folder is gone (default: the home folder). */
  fallbackCwd?: string;
  /** Tests: the spawn stand-in. */
  start?: (plan: LaunchPlan, env: NodeJS.ProcessEnv) => Promise<void>;
}

async function isDir(path: string): Promise<boolean> {
  return statPath(path).then(
    (s) => s.isDirectory,
    () => false,
  );
}

/** Continues `session` in pi (`fork`: into the fallback folder, the session's own being gone). */
export async function continueInPi(
  session: { path: string; cwd: string },
  fork: boolean,
  opts: ContinueOptions,
): Promise<ContinueResultDto> {
  const env = opts.env ?? process.env;
  const platform = opts.platform ?? process.platform;
  const cwdMissing = !session.cwd || !(await isDir(session.cwd));
  const cwd = fork ? (opts.fallbackCwd ?? homedir()) : session.cwd;
  const argv = piArgv(session.path, fork);
  const command = commandLine(cwd, argv);
  const base = { command, cwd, cwdMissing, fork };
  if (cwdMissing && !fork) return { ...base, launched: false, terminal: null };
  if (!opts.launches) return { ...base, launched: false, terminal: null };
  const plan = launchPlan(platform, env, cwd, argv);
  try {
    await (opts.start ?? launch)(plan, env);
  } catch (err) {
    throw new CanopyError(
      'io',
      `${err instanceof Error ? err.message : String(err)} (set CANOPY_TERMINAL to your terminal)`,
    );
  }
  return { ...base, launched: true, terminal: terminalFor(platform, env) };
}
