/**
 * "Continue in pi": the command that opens the user's terminal in a session's folder running
 * pi on it, per OS. Pure: the OS, the environment and the choice of terminal come in as values.
 */
import { shellQuote } from '../shared/resume-command';

type Env = Record<string, string | undefined>;

export interface LaunchPlan {
  command: string;
  args: string[];
  /** The folder the terminal starts in. */
  cwd: string;
}

/** pi on a session file: `--session` resumes it; `--fork` copies it into a new session in the folder pi runs in. */
export function piArgv(file: string, fork = false): string[] {
  return ['pi', fork ? '--fork' : '--session', file];
}

/** The terminal program to use: Canopy's setting (`CANOPY_TERMINAL`), else `$TERMINAL`, else the OS's. */
export function terminalFor(platform: NodeJS.Platform, env: Env): string {
  const chosen = env.CANOPY_TERMINAL?.trim() || (platform === 'linux' ? env.TERMINAL?.trim() : '');
  if (chosen) return chosen;
  if (platform === 'darwin') return 'Terminal';
  if (platform === 'win32') return 'wt.exe';
  return 'x-terminal-emulator';
}

const base = (program: string) =>
  program
    .split(/[\\/]/)
    .pop()!
    .replace(/\.exe$/i, '')
    .toLowerCase();

/** How a Linux terminal takes a command to run: most with `-e`, some after `--`, kitty bare. */
function linuxArgs(program: string, argv: readonly string[], cwd: string): string[] {
  switch (base(program)) {
    case 'gnome-terminal':
    case 'kgx':
    case 'ptyxis':
    case 'xfce4-terminal-wrapper':
      return [`--working-directory=${cwd}`, '--', ...argv];
    case 'kitty':
      return ['--directory', cwd, ...argv];
    case 'wezterm':
      return ['start', '--cwd', cwd, '--', ...argv];
    case 'konsole':
      return ['--workdir', cwd, '-e', ...argv];
    default:
      return ['-e', ...argv];
  }
}

/** AppleScript strings: backslash and double quote escaped. */
const appleString = (s: string) => `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/** The process to start so the user's terminal opens in `cwd` running `argv`. */
export function launchPlan(platform: NodeJS.Platform, env: Env, cwd: string, argv: readonly string[]): LaunchPlan {
  const terminal = terminalFor(platform, env);
  if (platform === 'darwin') {
    // Terminal.app runs a shell line in a new window; the folder is part of the line.
    const line = `cd ${shellQuote(cwd)} && ${argv.map(shellQuote).join(' ')}`;
    const script = `tell application ${appleString(terminal)} to do script ${appleString(line)}`;
    return {
      command: 'osascript',
      args: ['-e', script, '-e', `tell application ${appleString(terminal)} to activate`],
      cwd,
    };
  }
  if (platform === 'win32') {
    if (base(terminal) === 'wt') return { command: terminal, args: ['-d', cwd, ...argv], cwd };
    return { command: terminal, args: ['/k', ...argv], cwd };
  }
  return { command: terminal, args: linuxArgs(terminal, argv, cwd), cwd };
}

/** The same, as a line for a POSIX shell: what `canopy serve` copies instead of launching. */
export function commandLine(cwd: string, argv: readonly string[]): string {
  const run = argv.map(shellQuote).join(' ');
  return cwd ? `cd ${shellQuote(cwd)} && ${run}` : run;
}
