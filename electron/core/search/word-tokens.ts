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

/** A widened word past this many terms filters too little to be worth its OR: it is left out. */
export const MAX_WIDENED = 400;
/**
 * Terms a phrase's last word may be spelled out as (one phrase each); past it the phrase ends in
 * one FTS5 prefix query. A prefix query costs up to ~100 ms on the 10k store (every term with the
 * prefix is merged), an exact phrase of rare words under 1 ms: never a prefix inside many ORs.
 */
const MAX_PHRASES = 32;

const quote = (words: readonly string[]): string => `"${words.join(' ')}"`;
const anyOf = (options: readonly string[]): string =>
  options.length === 1 ? options[0]! : `(${options.join(' OR ')})`;
const allOf = (parts: readonly (string | null)[]): string | null => {
  const kept = parts.filter((p): p is string => p !== null);
  return kept.length === 0 ? null : kept.length === 1 ? kept[0]! : `(${kept.join(' AND ')})`;
};

/**
 * The FTS5 expression one required substring gives, or null when it narrows nothing. Its words
 * w1…wk lie at consecutive positions: w1 ends a term, wk starts one, those between are whole.
 */
export function substringExpression(substring: string, terms: TermSource): string | null {
  const words = wordTokens(substring);
  if (words.length === 0) return null;
  if (words.length === 1) {
    const within = terms.matching(words[0]!, 'in', MAX_WIDENED);
    return within ? anyOf([...within, LONG_WORD].map((t) => quote([t]))) : null;
  }
  const core = words.slice(1, -1);
  const firsts = terms.matching(words[0]!, 'end', MAX_WIDENED);
  const lasts = terms.matching(words[words.length - 1]!, 'start', MAX_WIDENED);
  const corePhrase = core.length > 0 ? quote(core) : null;
  // A block with a word too long for the term list may hold the first or the last word inside it.
  const long = allOf([quote([LONG_WORD]), corePhrase]);
  if (firsts?.length === 0 || lasts?.length === 0) return long;
  const first = words[0]!;
  const last = words[words.length - 1]!;
  // The rest after a first word: the last word spelled out when few terms start with it, else one prefix query.
  const after = (head: readonly string[]): string =>
    lasts && lasts.length <= MAX_PHRASES
      ? anyOf(lasts.map((l) => quote([...head, ...core, l])))
      : `${quote([...head, ...core, last])} *`;
  let found: string;
  if (!firsts) {
    // Too many terms end with the first word to name: the rest of the phrase alone.
    found = after([]);
  } else {
    // Most often the substring starts a word: that phrase in full, with positions. The other
    // terms ending with the first word (rare words, mostly) are ANDed beside the rest.
    const others = firsts.filter((t) => t !== first);
    const options = others.length < firsts.length ? [after([first])] : [];
    if (others.length > 0) options.push(`(${anyOf(others.map((t) => quote([t])))} AND ${after([])})`);
    found = anyOf(options);
  }
  return `(${found} OR ${long})`;
}

/** Every required substring's expression ANDed (null: none narrows, every block is a candidate). */
export function wordExpression(substrings: readonly string[], terms: TermSource): string | null {
  const parts = substrings.map((s) => substringExpression(s, terms)).filter((e): e is string => e !== null);
  return parts.length === 0 ? null : parts.join(' AND ');
}
