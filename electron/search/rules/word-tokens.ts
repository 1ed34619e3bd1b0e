/**
 * Words as the search index's FTS5 tokenizer makes them (`unicode61 remove_diacritics 0`: its own
 * table of which characters are in words, fts-token-chars.ts), and the FTS5 expression that a text
 * holding a substring must match. PURE.
 *
 * pi's search matches substrings, not words, so a substring's words are widened to the indexed
 * words that can hold them (`Config` is inside `loadConfig`): a lone word to every term containing
 * it, a phrase's first word to the terms ending with it, its last word to a prefix; the words
 * between match whole, at consecutive positions. The expression is a prefilter: every candidate
 * line is still checked by pi's rule, so it may match more than the substring, never less.
 */

import { FTS_TOKEN_RANGES } from './fts-token-chars';

/** One bit per code point: in a word for FTS5 (ASCII: 0-9, A-Z, a-z). */
const IN_WORD = (() => {
  const bits = new Uint8Array(0x110000 >> 3);
  const set = (cp: number) => (bits[cp >> 3]! |= 1 << (cp & 7));
  for (let cp = 0; cp < 0x80; cp++) if (/[0-9A-Za-z]/.test(String.fromCharCode(cp))) set(cp);
  for (let i = 0; i < FTS_TOKEN_RANGES.length; i += 2) {
    for (let cp = FTS_TOKEN_RANGES[i]!; cp < FTS_TOKEN_RANGES[i + 1]!; cp++) set(cp);
  }
  return bits;
})();

/**
 * The words of `text` as FTS5 splits it. A lone surrogate is read as U+FFFD, as SQLite reads it.
 * The exact split matters one way only: a word FTS5 keeps whole must not be cut here (its pieces
 * would then be looked for as words of their own).
 */
function splitWords(text: string): string[] {
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    let cp = text.charCodeAt(i);
    let width = 1;
    if (cp >= 0xd800 && cp <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (cp <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        cp = ((cp - 0xd800) << 10) + (next - 0xdc00) + 0x10000;
        width = 2;
      } else cp = 0xfffd;
    }
    const inWord = (IN_WORD[cp >> 3]! & (1 << (cp & 7))) !== 0;
    if (inWord && start < 0) start = i;
    else if (!inWord && start >= 0) {
      out.push(text.slice(start, i));
      start = -1;
    }
    i += width - 1;
  }
  if (start >= 0) out.push(text.slice(start));
  return out;
}

/**
 * The words of `text` lowercased as pi's rule lowercases (the whole string, so `İ` and a final `Σ`
 * turn out as they do there). The index is given the same lowercased text, and a query's words
 * pass through the same toLowerCase: FTS5's own folding then meets the same strings both ways.
 */
export function wordTokens(text: string): string[] {
  return splitWords(text.toLowerCase());
}

/**
 * Words longer than this are not listed as terms (a base64 run or a minified line would fill the
 * list); a block holding one is marked with LONG_WORD instead, and any widened word also matches
 * the mark (such a block may hold anything inside its long word).
 */
export const MAX_TERM_CHARS = 64;
export const LONG_WORD = 'qqcanopylongwordqq';

/**
 * What a block gives the index: its text lowercased (what FTS5 indexes), with the long-word mark
 * when it needs one, and the terms it adds to the term list.
 */
export function blockTerms(text: string): { indexed: string; terms: string[] } {
  const lower = text.toLowerCase();
  const words = splitWords(lower);
  // Repeats are left in: the caller checks each word against the list it keeps anyway.
  const terms = words.filter((t) => t.length <= MAX_TERM_CHARS);
  const long = terms.length < words.length;
  return { indexed: long ? `${lower} ${LONG_WORD}` : lower, terms };
}

/** The indexed terms, searched for the words a query widens to. */
export interface TermSource {
  /** Terms containing `word` ('in'), ending with it ('end') or starting with it ('start'); null when more than `max`. */
  matching(word: string, where: 'in' | 'end' | 'start', max: number): string[] | null;
}

/** A lone word widened past this many terms filters too little to be worth its OR: it narrows nothing. */
export const MAX_WIDENED = 400;
/**
 * Terms a phrase's first word may end (as a longer word) and still be looked up one by one (about
 * 15 µs a term on the 10k store); past it the rest of the phrase alone narrows.
 */
export const MAX_GLUED = 2500;
/**
 * Terms a phrase's last word may be spelled out as (one exact phrase each); past it the phrase is
 * cut before its last word, or ends in one FTS5 prefix query (which merges every term with the
 * prefix: ~100 ms for "the" on the 10k store, against under 1 ms for an exact phrase of rare words).
 */
const MAX_PHRASES = 32;

const quote = (words: readonly string[]): string => `"${words.join(' ')}"`;
const anyOf = (options: readonly string[]): string =>
  options.length === 1 ? options[0]! : `(${options.join(' OR ')})`;

/** The words after a head, at consecutive positions after it, as FTS5 can ask for them. */
export interface TailQuery {
  /**
   * Exact phrases only (cheap): the last word spelled out; or, when `prefix` is set, the phrase cut
   * before its last word (more blocks, never fewer hits). null: nothing is left to ask (every block).
   */
  exact: string | null;
  /** The whole phrase, its last word a prefix, and how many terms that prefix merges (its cost). */
  prefix: { expr: string; terms: number } | null;
}

/**
 * What the index is asked for one required substring. `any`: blocks matching the expression.
 * `phrase` (words w1…wk, k ≥ 2): a block holding it matches `rest` (w2…wk, every hit); a hit whose
 * first word is w1 itself matches `main`; one whose first word is a longer term ending with w1
 * (`glued`, null when too many to name) matches that term followed by `follow` (w2…wk-1) — or,
 * when nothing follows, holds the term and matches `rest`. `long`: a block with a word too long
 * for the term list may hold the phrase's ends inside it. Every candidate is checked against its line.
 */
export type SubstringPlan =
  | { kind: 'any'; expr: string }
  | {
      kind: 'phrase';
      main: TailQuery | null;
      rest: TailQuery;
      glued: string[] | null;
      follow: string[];
      long: string;
    };

/** The plan for one required substring, or null when it narrows nothing. */
export function substringPlan(substring: string, terms: TermSource): SubstringPlan | null {
  const words = wordTokens(substring);
  if (words.length === 0) return null;
  if (words.length === 1) {
    const within = terms.matching(words[0]!, 'in', MAX_WIDENED);
    return within ? { kind: 'any', expr: anyOf([...within, LONG_WORD].map((t) => quote([t]))) } : null;
  }
  const first = words[0]!;
  const last = words[words.length - 1]!;
  const core = words.slice(1, -1);
  // A block with a word too long for the term list may hold the first or the last word inside it.
  const long = core.length > 0 ? `(${quote([LONG_WORD])} AND ${quote(core)})` : quote([LONG_WORD]);
  const firsts = terms.matching(first, 'end', MAX_GLUED + 1);
  const lasts = terms.matching(last, 'start', MAX_PHRASES);
  if (firsts?.length === 0 || lasts?.length === 0) return { kind: 'any', expr: long };
  const tail = (head: readonly string[]): TailQuery => {
    if (lasts) return { exact: anyOf(lasts.map((l) => quote([...head, ...core, l]))), prefix: null };
    const cut = [...head, ...core];
    return {
      exact: cut.length > 0 ? quote(cut) : null,
      prefix: { expr: `${quote([...cut, last])} *`, terms: terms.matching(last, 'start', Infinity)?.length ?? 0 },
    };
  };
  return {
    kind: 'phrase',
    main: !firsts || firsts.includes(first) ? tail([first]) : null,
    rest: tail([]),
    glued: firsts ? firsts.filter((t) => t !== first) : null,
    follow: core,
    long,
  };
}
