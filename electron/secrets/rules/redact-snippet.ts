/**
 * Redaction of a search snippet: a short, whitespace-collapsed window of an entry's text, cut
 * anywhere, so the radar's rules may no longer recognise a secret in it. The secrets are found in
 * the whole entry (each string with its key, as the radar scans) and looked for in the window:
 * whole, or the part of one a cut end reaches into. PURE.
 */
import { entryTexts } from './entry-texts';
import { redactionMarker } from './redact';
import { matchText } from './scan';
import type { SecretMatcher } from './types';

/** A secret value as it reads in a snippet (whitespace runs one space) and the rule that found it. */
export interface SnippetSecret {
  value: string;
  rule: string;
}

/** A cut end shows at most this many characters of a secret before it is redacted (fewer are not told apart from text). */
const MIN_PARTIAL = 4;
const ELLIPSIS = '…';

const collapse = (s: string): string => s.replace(/\s+/g, ' ');

/** Every secret in `raw` (an entry object), longest first. */
export function entrySecrets(raw: Record<string, unknown>, matchers: readonly SecretMatcher[]): SnippetSecret[] {
  const out = new Map<string, string>();
  for (const t of entryTexts(raw))
    for (const m of matchText(t.text, t.key, matchers)) {
      const value = collapse(t.text.slice(m.start, m.end)).trim();
      if (value && !out.has(value)) out.set(value, m.rule);
    }
  return [...out].map(([value, rule]) => ({ value, rule })).sort((a, b) => b.value.length - a.value.length);
}

type Range = [start: number, end: number, rule: string];

function rangesOf(text: string, secrets: readonly SnippetSecret[], matchers: readonly SecretMatcher[]): Range[] {
  const ranges: Range[] = matchText(text, null, matchers).map((m) => [m.start, m.end, m.rule]);
  const from = text.startsWith(ELLIPSIS) ? ELLIPSIS.length : 0;
  const to = text.endsWith(ELLIPSIS) && text.length > from ? text.length - ELLIPSIS.length : text.length;
  const body = text.slice(from, to);
  for (const { value, rule } of secrets) {
    for (let i = text.indexOf(value); i >= 0; i = text.indexOf(value, i + value.length))
      ranges.push([i, i + value.length, rule]);
    if (body && value.includes(body)) ranges.push([from, to, rule]);
    // A cut start shows a secret's tail; a cut end shows its head.
    const longest = Math.min(value.length - 1, body.length);
    for (let k = longest; from > 0 && k >= MIN_PARTIAL; k--)
      if (body.startsWith(value.slice(value.length - k))) {
        ranges.push([from, from + k, rule]);
        break;
      }
    for (let k = longest; to < text.length && k >= MIN_PARTIAL; k--)
      if (body.endsWith(value.slice(0, k))) {
        ranges.push([to - k, to, rule]);
        break;
      }
  }
  ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: Range[] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] < last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([...r]);
  }
  return merged;
}

/**
 * `snippet` with each secret of its entry (and anything the rules find in the snippet itself)
 * replaced by `[REDACTED:<rule>]`; `match` (offsets of the hit in the snippet) moved to follow.
 */
export function redactSnippet(
  snippet: string,
  match: readonly [number, number],
  secrets: readonly SnippetSecret[],
  matchers: readonly SecretMatcher[],
): { snippet: string; match: [number, number] } {
  const ranges = rangesOf(snippet, secrets, matchers);
  if (ranges.length === 0) return { snippet, match: [match[0], match[1]] };
  let out = '';
  let at = 0;
  const moved = (pos: number, isEnd: boolean): number => {
    let shift = 0;
    for (const [s, e, rule] of ranges) {
      // After a range: shifted by what its marker adds; inside one: the marker's start or end.
      if (pos >= e) shift += redactionMarker(rule).length - (e - s);
      else if (pos > s) return s + shift + (isEnd ? redactionMarker(rule).length : 0);
      else break;
    }
    return pos + shift;
  };
  for (const [s, e, rule] of ranges) {
    out += snippet.slice(at, s) + redactionMarker(rule);
    at = e;
  }
  out += snippet.slice(at);
  return { snippet: out, match: [moved(match[0], false), moved(match[1], true)] };
}
