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
export function blockTerms(text: string): { indexed: string; terms: Set<string> } {
  const lower = text.toLowerCase();
  const terms = new Set<string>();
  let long = false;
  for (const t of splitWords(lower)) {
    if (t.length > MAX_TERM_CHARS) long = true;
    else terms.add(t);
  }
  return { indexed: long ? `${lower} ${LONG_WORD}` : lower, terms };
}

/** The indexed terms, searched for the words a query widens to. */
export interface TermSource {
  /** Terms containing `word` (`where` 'end': ending with it), or null when more than `max`. */
  matching(word: string, where: 'in' | 'end', max: number): string[] | null;
}

/** A widened word past this many terms filters too little to be worth its OR: it is left out. */
export const MAX_WIDENED = 400;

const quote = (words: readonly string[]): string => `"${words.join(' ')}"`;

/** The FTS5 expression one required substring gives, or null when it narrows nothing. */
export function substringExpression(substring: string, terms: TermSource): string | null {
  const words = wordTokens(substring);
  if (words.length === 0) return null;
  if (words.length === 1) {
    const within = terms.matching(words[0]!, 'in', MAX_WIDENED);
    if (!within) return null;
    return `(${[...within.map((t) => quote([t])), quote([LONG_WORD])].join(' OR ')})`;
  }
  const rest = words.slice(1);
  // The last word is a prefix (`*`); the middle ones whole; the first one is widened below.
  const tail = `${quote(rest)} *`;
  const firsts = terms.matching(words[0]!, 'end', MAX_WIDENED);
  if (!firsts) return tail;
  const options = firsts.map((t) => `${quote([t, ...rest])} *`);
  options.push(`("${LONG_WORD}" AND ${tail})`);
  return `(${options.join(' OR ')})`;
}

/** Every required substring's expression ANDed (null: none narrows, every block is a candidate). */
export function wordExpression(substrings: readonly string[], terms: TermSource): string | null {
  const parts = substrings.map((s) => substringExpression(s, terms)).filter((e): e is string => e !== null);
  return parts.length === 0 ? null : parts.join(' AND ');
}
