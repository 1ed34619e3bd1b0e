/** One argument for a POSIX shell: single-quoted, a quote inside written as '\''. */
export function shellQuote(arg: string): string {
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** The command line that resumes a session file in pi, single-quoted for POSIX shells. */
export function resumeCommand(path: string): string {
  return `pi --session ${shellQuote(path)}`;
}

/**
 * Resuming where the session ran: pi keeps the folder it was launched in as the cwd (pi #2024),
 * so the command first changes to the session's cwd.
 */
export function resumeCommandIn(cwd: string, path: string): string {
  return cwd ? `cd ${shellQuote(cwd)} && ${resumeCommand(path)}` : resumeCommand(path);
}
