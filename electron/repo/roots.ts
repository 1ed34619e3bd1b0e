/**
 * Which session roots to browse: pi's own (`$PI_CODING_AGENT_DIR/sessions`, else
 * `~/.pi/agent/sessions`) plus any `--root DIR`. A root that does not exist is fine (lists nothing).
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

type Env = Record<string, string | undefined>;

/** pi's rule: "~" and a leading "~/" mean the home directory; nothing else is expanded. */
export function expandTilde(path: string, home: string = homedir()): string {
  if (path === '~') return home;
  if (path.startsWith('~/') || (process.platform === 'win32' && path.startsWith('~\\')))
    return join(home, path.slice(2));
  return path;
}

/** pi's sessions root for this environment (pi-session-format.md §1.1). */
export function defaultRoot(env: Env = process.env, home: string = homedir()): string {
  const agentDir = env.PI_CODING_AGENT_DIR;
  return agentDir ? join(expandTilde(agentDir, home), 'sessions') : join(home, '.pi', 'agent', 'sessions');
}

/** Default root first, then the extra roots; absolute, without duplicates. */
export function resolveRoots(
  extra: readonly string[] = [],
  env: Env = process.env,
  home: string = homedir(),
): string[] {
  const all = [defaultRoot(env, home), ...extra.map((r) => expandTilde(r, home))].map((r) => resolve(r));
  return [...new Set(all)];
}

/** The arguments that name files or folders to open: not options, not the value of `--root`. */
export function openArgsFrom(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--root') i++;
    else if (!arg.startsWith('-')) out.push(arg);
  }
  return out;
}

/** Roots for a process started with `--root DIR` / `--root=DIR` somewhere in its arguments. */
export function rootsFromArgs(argv: readonly string[], env: Env = process.env, home: string = homedir()): string[] {
  const extra: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--root' && i + 1 < argv.length) extra.push(argv[++i]!);
    else if (arg.startsWith('--root=')) extra.push(arg.slice('--root='.length));
  }
  return resolveRoots(extra, env, home);
}

/** A deep link's shape: `#/session/<id>[?entry=<id>]` or `#/search?q=<query>`, URI-encoded, no spaces. */
const LINK = /^#\/(session\/[^\s#/?]+(\?entry=[^\s#&]+)?|search\?q=[^\s#&]*)$/;

/**
 * The deep link a process was started with (`--link=#/session/…`; pi's `/canopy` passes one), or
 * null. Only the two shapes the renderer follows pass: any local process can start a second instance.
 */
export function linkFromArgs(argv: readonly string[]): string | null {
  let link: string | null = null;
  for (const arg of argv) if (arg.startsWith('--link=')) link = arg.slice('--link='.length);
  return link !== null && LINK.test(link) ? link : null;
}
