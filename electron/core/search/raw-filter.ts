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
/**
 * Whitespace inside a JSON string: raw, written as an escape (any \uXXXX, to stay a superset), or any
 * byte of a UTF-8 sequence (the line is tested as latin1: U+00A0 or U+2028 are bytes ≥ 0x80 there).
 */
const JSON_SPACE = String.raw`(?:\s|[\x80-\xff]|\\[nrtf]|\\u[0-9a-fA-F]{4})`;
/** Words a number or boolean argument may produce (unquoted in the line). */
const NUMBER_LIKE = /^[0-9.eE+-]+$/;

const rawSafe = (w: string): boolean => RAW_SAFE.test(w) && !UNSAFE.test(w);

export type RawLineTest = (line: string) => boolean;

interface PhraseTest {
  whole: RegExp;
  /** Per pair of neighbouring words: together, or the first ending a string and the second starting one. */
  pairs: { joined: RegExp; end: RegExp; start: RegExp }[];
}

/**
 * For terms not met by the session: every word (and every literal run of the regex) must be in the
 * line as typed. A phrase must also be there with JSON whitespace between its words, or else each
 * two neighbouring words must be so, or the first end a string value and the second start one (the
 * text joins fields with a newline, so a phrase may run from one field into the next). Holding for
 * a line, the test holds for any text containing it: a block of lines is tested with one call.
 */
export function rawLineTest(query: SearchQuery, metBySession: readonly boolean[]): RawLineTest {
  const needles = new Set<string>();
  const phrases: PhraseTest[] = [];
  query.terms.forEach((t, i) => {
    if (metBySession[i]) return;
    const words = t.value.split(' ');
    for (const w of words) if (rawSafe(w)) needles.add(w);
    if (t.kind !== 'phrase' || words.length < 2) return;
    if (!words.every(rawSafe) || words.some((w) => NUMBER_LIKE.test(w) || 'true'.includes(w) || 'false'.includes(w))) return;
    const esc = words.map(escapeRegExp);
    phrases.push({
      whole: new RegExp(esc.join(`${JSON_SPACE}+`), 'i'),
      pairs: esc.slice(1).map((next, k) => ({
        joined: new RegExp(`${esc[k]!}${JSON_SPACE}+${next}`, 'i'),
        end: new RegExp(`${esc[k]!}${JSON_SPACE}*"`, 'i'),
        start: new RegExp(`"${JSON_SPACE}*${next}`, 'i'),
      })),
    });
  });
  if (query.regex) for (const l of regexLiterals(query.regex.source)) for (const w of l.split(/\s+/)) if (w.length >= 2 && rawSafe(w)) needles.add(w);
  // Longest first: the likeliest to be missing, so a block without it costs one scan.
  const tests = [...needles].sort((a, b) => b.length - a.length).map((w) => new RegExp(escapeRegExp(w), 'i'));
  const phraseHolds = (p: PhraseTest, line: string): boolean => p.whole.test(line) || p.pairs.every((q) => q.joined.test(line) || (q.start.test(line) && q.end.test(line)));
  return (line) => tests.every((re) => re.test(line)) && phrases.every((p) => phraseHolds(p, line));
}
