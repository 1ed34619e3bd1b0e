/** The command line that resumes a session file in pi, single-quoted for POSIX shells. */
export function resumeCommand(path: string): string {
  return `pi --session '${path.replace(/'/g, `'\\''`)}'`;
}
