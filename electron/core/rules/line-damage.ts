/**
 * Issues for lines the file's damage made unreadable: a line over the size limit (never decoded,
 * see storage/line-split.ts) and runs of NUL bytes (a hole a crash left, where it is). PURE.
 */
import type { Issue } from '../types';

/** A line the reader refused to decode: its byte length and its longest NUL run (file offset). */
export interface OversizedFacts {
  length: number;
  nulRun?: { offset: number; length: number };
}

/** What a line over the limit adds to the issues (the line itself contributes no value). */
export function oversizedIssues(line: number, o: OversizedFacts): Issue[] {
  const out: Issue[] = [
    {
      line,
      kind: 'line_over_limit',
      message: `line ${line} is ${o.length} bytes long, over the limit: it is left out, unread`,
    },
  ];
  if (o.nulRun)
    out.push({
      line,
      kind: 'nul_bytes',
      message: `line ${line} holds ${o.nulRun.length} NUL bytes from byte ${o.nulRun.offset} of the file (damage, e.g. from a crash)`,
    });
  return out;
}

/** The longest run of U+0000 in a line's text, as an issue; null when it has none. */
export function nulRunIssue(line: number, text: string): Issue | null {
  let at = text.indexOf('\0');
  if (at < 0) return null;
  let best = 0;
  let bestAt = at;
  while (at >= 0) {
    let end = at;
    while (end < text.length && text.charCodeAt(end) === 0) end++;
    if (end - at > best) {
      best = end - at;
      bestAt = at;
    }
    at = text.indexOf('\0', end);
  }
  return {
    line,
    kind: 'nul_bytes',
    message: `line ${line} holds ${best} NUL bytes from column ${bestAt + 1} (damage, e.g. from a crash)`,
  };
}
