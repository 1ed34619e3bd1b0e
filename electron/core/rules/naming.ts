/** pi's on-disk names (pi-session-format.md §1.2, §1.3). */

/** Per-project directory name: strip one leading separator, map / \ : to '-', wrap in '--'. */
export function encodeCwd(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`;
}

/** `<ISO time with : and . replaced by ->_<sessionId>.jsonl`. */
export function sessionFileName(isoTimestamp: string, sessionId: string): string {
  return `${isoTimestamp.replace(/[:.]/g, '-')}_${sessionId}.jsonl`;
}
