/**
 * A test on an entry's raw JSON line that rejects most non-matching candidates without parsing
 * them. PURE. It only ever says "cannot match" when the parsed text cannot match (a necessary
 * condition), so verification stays exact; it assumes pi's writer (JSON.stringify), which escapes
 * only quotes, backslashes and control characters.
 */
import { escapeRegExp, regexLiterals, type SearchQuery } from './search-query';

/** Printable ASCII that JSON.stringify writes as is (no quote, backslash or slash, which some writers escape). */
const RAW_SAFE = /^[\x21-\x7e]+$/;
const UNSAFE = /["\\/]/;
/** Whitespace inside a JSON string: raw, or written as an escape (any \uXXXX, to stay a superset). */
const JSON_SPACE = String.raw`(?:\s|\\[nrtf]|\\u[0-9a-fA-F]{4})`;
/** Words a number or boolean argument may produce (unquoted in the line). */
const NUMBER_LIKE = /^[0-9.eE+-]+$/;

const rawSafe = (w: string): boolean => RAW_SAFE.test(w) && !UNSAFE.test(w);

export type RawLineTest = (line: string) => boolean;

/**
 * For terms not met by the session: every word (and every literal run of the regex) must be in the
 * line as typed. A phrase must also be there with JSON whitespace between its words, unless some
 * word of it ends a string value (the text joins fields with a newline, so a phrase may run from one
 * field into the next).
 */
export function rawLineTest(query: SearchQuery, metBySession: readonly boolean[]): RawLineTest {
  const needles = new Set<string>();
  const phrases: { whole: RegExp; ends: RegExp }[] = [];
  query.terms.forEach((t, i) => {
    if (metBySession[i]) return;
    const words = t.value.split(' ');
    for (const w of words) if (rawSafe(w)) needles.add(w);
    if (t.kind !== 'phrase' || words.length < 2) return;
    if (!words.every(rawSafe) || words.some((w) => NUMBER_LIKE.test(w) || 'true'.includes(w) || 'false'.includes(w))) return;
    phrases.push({
      whole: new RegExp(words.map(escapeRegExp).join(`${JSON_SPACE}+`), 'i'),
      ends: new RegExp(`(?:${words.slice(0, -1).map(escapeRegExp).join('|')})${JSON_SPACE}*"`, 'i'),
    });
  });
  if (query.regex) for (const l of regexLiterals(query.regex.source)) for (const w of l.split(/\s+/)) if (w.length >= 2 && rawSafe(w)) needles.add(w);
  const tests = [...needles].map((w) => new RegExp(escapeRegExp(w), 'i'));
  return (line) => tests.every((re) => re.test(line)) && phrases.every((p) => p.whole.test(line) || p.ends.test(line));
}
