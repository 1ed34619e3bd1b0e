/**
 * Which session roots to browse: pi's own (`$PI_CODING_AGENT_DIR/sessions`, else
 * `~/.pi/agent/sessions`) plus any `--root DIR`. A root that holds pi's `sessions/` (or
 * `agent/sessions/`) is taken as that folder; a root that does not exist lists nothing, and says so.
 */
import { homedir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { statPathOrNull } from '../storage/stat';

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

const isDir = (path: string): boolean => statPathOrNull(path)?.isDirectory === true;

/**
 * A root one level above pi's sessions folder (`~/.pi/agent`, or `~/.pi`) means that folder: the
 * root, and a note saying so (null when the root is taken as it is). Project folders are named
 * `--<cwd>--`, so a folder named `sessions` is never one.
 */
export function sessionsFolderOf(
  root: string,
  dir: (path: string) => boolean = isDir,
): { root: string; note: string | null } {
  for (const inner of [join(root, 'sessions'), join(root, 'agent', 'sessions')]) {
    if (dir(inner)) return { root: inner, note: `${root} holds pi's sessions folder: browsing ${inner}` };
  }
  return { root, note: null };
}

/** resolveRoots, with a line for each root taken as the sessions folder inside it. */
export function resolveRootsExplained(
  extra: readonly string[] = [],
  env: Env = process.env,
  home: string = homedir(),
  dir: (path: string) => boolean = isDir,
): { roots: string[]; notes: string[] } {
  const given = extra.map((r) => resolve(expandTilde(r, home))).map((r) => sessionsFolderOf(r, dir));
  const roots = [...new Set([resolve(defaultRoot(env, home)), ...given.map((g) => g.root)])];
  return { roots, notes: given.flatMap((g) => (g.note ? [g.note] : [])) };
}

/** Default root first, then the extra roots; absolute, without duplicates. */
export function resolveRoots(
  extra: readonly string[] = [],
  env: Env = process.env,
  home: string = homedir(),
): string[] {
  return resolveRootsExplained(extra, env, home).roots;
}

/**
 * A line for each root that gives nothing: one that does not exist, or one without a session
 * file in it (what it holds is listed, or skipped with a reason, otherwise).
 */
export function emptyRootNotes(
  roots: readonly string[],
  listing: { sessions: ReadonlyArray<{ path: string }>; skipped: ReadonlyArray<{ path: string }> },
  dir: (path: string) => boolean = isDir,
): string[] {
  const inside = (root: string, path: string) => {
    const rel = relative(root, path);
    return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..';
  };
  return roots.flatMap((root) => {
    if (!dir(root)) return [`${root} does not exist`];
    const any = [...listing.sessions, ...listing.skipped].some((f) => inside(root, f.path));
    return any ? [] : [`${root} holds no pi session files (pi keeps them in <root>/--<cwd>--/*.jsonl)`];
  });
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
