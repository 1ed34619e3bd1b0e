/**
 * A test on an entry's raw JSON line that rejects most non-matching candidates without parsing
 * them. PURE. It only ever says "cannot match" when the parsed text cannot match (a necessary
 * condition), so verification stays exact; it assumes pi's writer (JSON.stringify), which escapes
 * only quotes, backslashes and control characters.
 */
import { wordRarity } from './letter-rarity';
import { regexLineTest } from './regex-raw';
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

/** A character that may be part of JSON_SPACE (raw whitespace, UTF-8 bytes, escape letters and hex digits). */
function spaceLike(c: number): boolean {
  return (
    (c >= 9 && c <= 13) ||
    c === 32 ||
    c >= 0x80 ||
    c === 92 ||
    (c >= 48 && c <= 57) ||
    (c >= 65 && c <= 70) ||
    (c >= 97 && c <= 102) ||
    c === 110 ||
    c === 114 ||
    c === 116 ||
    c === 117
  );
}

const QUOTE = 34;

function stickyAt(re: RegExp, line: string, at: number): boolean {
  re.lastIndex = at;
  return re.test(line);
}

/** Of two neighbouring words, whether `b` is likely the rarer: the longer, or as long with rarer letters. */
const rarerSecond = (a: string, b: string): boolean =>
  b.length > a.length || (b.length === a.length && wordRarity(b) > wordRarity(a));

/**
 * Two neighbouring words of a phrase: together (`a` JSON space `b`), or `a` ending a string and `b`
 * starting one. The rarer word is found first and the rest checked where it occurs, so a common
 * word costs no scan of its own ("the oax" found by "the" checked ~290 places a 46 KB block).
 */
function pairTest(a: string, b: string): (line: string) => boolean {
  const [ea, eb] = [escapeRegExp(a), escapeRegExp(b)];
  const joined = new RegExp(`${ea}${JSON_SPACE}+${eb}`, 'iy');
  const end = new RegExp(`${ea}${JSON_SPACE}*"`, 'iy');
  const start = new RegExp(`"${JSON_SPACE}*${eb}`, 'iy');
  if (rarerSecond(a, b)) {
    const find = new RegExp(eb, 'ig');
    const endAnywhere = new RegExp(`${ea}${JSON_SPACE}*"`, 'i');
    return (line) => {
      let starts = false;
      for (let m = ((find.lastIndex = 0), find.exec(line)); m; m = ((find.lastIndex = m.index + 1), find.exec(line))) {
        const i = m.index;
        // The JSON space before b lies in the run of space-like characters ending at i.
        let j = i;
        while (j > 0 && spaceLike(line.charCodeAt(j - 1))) j--;
        for (let p = Math.max(j, a.length); p < i; p++) if (stickyAt(joined, line, p - a.length)) return true;
        if (!starts && j > 0 && line.charCodeAt(j - 1) === QUOTE && stickyAt(start, line, j - 1)) starts = true;
      }
      return starts && endAnywhere.test(line);
    };
  }
  const find = new RegExp(ea, 'ig');
  const startAnywhere = new RegExp(`"${JSON_SPACE}*${eb}`, 'i');
  return (line) => {
    let ends = false;
    for (let m = ((find.lastIndex = 0), find.exec(line)); m; m = ((find.lastIndex = m.index + 1), find.exec(line))) {
      if (stickyAt(joined, line, m.index)) return true;
      if (!ends && stickyAt(end, line, m.index)) ends = true;
    }
    return ends && startAnywhere.test(line);
  };
}

/** The words (and a regex's literal words) a raw line must hold as typed, any case; and the query's phrases' words. */
function literalsOf(
  query: SearchQuery,
  metBySession: readonly boolean[],
): { needles: Set<string>; phrases: string[][] } {
  const needles = new Set<string>();
  const phrases: string[][] = [];
  query.terms.forEach((t, i) => {
    if (metBySession[i]) return;
    const words = t.value.split(' ');
    for (const w of words) if (rawSafe(w)) needles.add(w);
    if (t.kind === 'phrase') phrases.push(words);
  });
  // A regex literal's words with whitespace between them are a phrase too (the regex matches in the joined text).
  if (query.regex) {
    for (const l of regexLiterals(query.regex.source)) {
      const words = l.split(/\s+/).filter(Boolean);
      for (const w of words) if (w.length >= 2 && rawSafe(w)) needles.add(w);
      phrases.push(words);
    }
  }
  return { needles, phrases };
}

/**
 * The words a raw line must hold in some ASCII case for rawLineTest to pass, longest first (the
 * likeliest to be missing): a byte-level pre-test looks for them before any string is made.
 */
export function rawNeedles(query: SearchQuery, metBySession: readonly boolean[]): string[] {
  return [...literalsOf(query, metBySession).needles].sort((a, b) => b.length - a.length);
}

/** Phrases of up to this many words are tested whole (2^(n-1) ways to cross fields); longer ones a pair at a time. */
const MAX_LINKED = 4;

/**
 * A phrase of a few words, linked: its words cut into runs at the gaps that cross from one string
 * value to the next (every way of cutting is tried), each run's words with JSON whitespace between
 * them, every run but the first starting a string and every run but the last ending one. Each
 * distinct run is tested at most once a line; no cut (the whole phrase in one string) comes first.
 */
function linkedTest(words: readonly string[]): (line: string) => boolean {
  const esc = words.map(escapeRegExp);
  const runs = new Map<string, RegExp>();
  const run = (from: number, to: number, starts: boolean, ends: boolean): RegExp => {
    const source = `${starts ? `"${JSON_SPACE}*` : ''}${esc.slice(from, to + 1).join(`${JSON_SPACE}+`)}${ends ? `${JSON_SPACE}*"` : ''}`;
    let re = runs.get(source);
    if (!re) runs.set(source, (re = new RegExp(source, 'i')));
    return re;
  };
  const ways: RegExp[][] = [];
  const gaps = words.length - 1;
  for (let cuts = 0; cuts < 1 << gaps; cuts++) {
    const bounds: [number, number][] = [];
    let from = 0;
    for (let g = 0; g < gaps; g++)
      if ((cuts >> g) & 1) {
        bounds.push([from, g]);
        from = g + 1;
      }
    bounds.push([from, gaps]);
    ways.push(bounds.map(([a, b], i) => run(a, b, i > 0, i < bounds.length - 1)));
  }
  ways.sort((a, b) => a.length - b.length);
  return (line) => {
    const known = new Map<RegExp, boolean>();
    const holds = (re: RegExp): boolean => {
      let v = known.get(re);
      if (v === undefined) known.set(re, (v = re.test(line)));
      return v;
    };
    return ways.some((way) => way.every(holds));
  };
}

/**
 * For terms not met by the session: every word (and every literal run of the regex) must be in the
 * line as typed. In a phrase, each two neighbouring words must also be there with JSON whitespace
 * between them, or the first end a string value and the second start one (the text joins fields
 * with a newline, so a phrase may run from one field into the next); a phrase of a few words must
 * be there so as a whole (linkedTest), a longer one a pair at a time. Holding for a line, the test
 * holds for any text containing it: a block of lines is tested with one call.
 */
export function rawLineTest(
  query: SearchQuery,
  metBySession: readonly boolean[],
  /** The words were found already (on the line's bytes, search/raw-bytes.ts): only the phrases are left. */
  wordsFound = false,
): RawLineTest {
  const { needles, phrases } = literalsOf(query, metBySession);
  const pairs: { test: (line: string) => boolean; rank: number }[] = [];
  const addPairs = (words: readonly string[]): void => {
    if (
      words.length < 2 ||
      !words.every(rawSafe) ||
      words.some((w) => NUMBER_LIKE.test(w) || 'true'.includes(w) || 'false'.includes(w))
    )
      return;
    // The pairs first (each found by its longer word: cheap), then a short phrase whole (its regexes
    // start with its first word, maybe a common one), where the pairs hold.
    if (words.length <= MAX_LINKED) pairs.push({ test: linkedTest(words), rank: -1 });
    for (let k = 0; k + 1 < words.length; k++)
      pairs.push({ test: pairTest(words[k]!, words[k + 1]!), rank: Math.max(words[k]!.length, words[k + 1]!.length) });
  };
  for (const words of phrases) addPairs(words);
  // Longest first: the likeliest to be missing, so text without it costs one scan.
  const tests = wordsFound
    ? []
    : [...needles].sort((a, b) => b.length - a.length).map((w) => new RegExp(escapeRegExp(w), 'i'));
  const pairTests = pairs.sort((a, b) => b.rank - a.rank).map((p) => p.test);
  // A regex with no literal would have every line parsed: a local one is tested on the line (regex-raw.ts), last.
  const regexTest = query.regex ? regexLineTest(query.regex) : null;
  if (regexTest) pairTests.push(regexTest);
  return (line) => tests.every((re) => re.test(line)) && pairTests.every((test) => test(line));
}
