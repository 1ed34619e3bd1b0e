/**
 * Terms as the search index's FTS5 table holds them, so the term list can be read from its
 * vocabulary (fts5vocab) instead of splitting every block's words again in JS. PURE.
 */
import { blockTerms, MAX_TERM_CHARS } from './word-tokens';

/**
 * The characters FTS5's `unicode61` folds further than toLowerCase leaves them (found by indexing
 * every code point, test/search/search-vocab.test.ts): its vocabulary holds `λόγοσ` where JS split
 * `λόγος`. Every term listed, and every word looked up in the list, goes through ftsTerm.
 */
const FOLDS: Readonly<Record<string, string>> = {
  '\u00b5': '\u03bc',
  '\u017f': 's',
  '\u03c2': '\u03c3',
  '\u03d0': '\u03b2',
  '\u03d1': '\u03b8',
  '\u03d5': '\u03c6',
  '\u03d6': '\u03c0',
  '\u03f0': '\u03ba',
  '\u03f1': '\u03c1',
  '\u03f5': '\u03b5',
  '\u1e9b': '\u1e61',
  '\u1fbe': '\u03b9',
};
const FOLDED = new RegExp(`[${Object.keys(FOLDS).join('')}]`, 'g');

/** A lowercased word as FTS5 stores it (a superset match: two words may fold to one term). */
export function ftsTerm(word: string): string {
  FOLDED.lastIndex = 0;
  return FOLDED.test(word) ? word.replace(FOLDED, (c) => FOLDS[c]!) : word;
}

/** ASCII characters FTS5 keeps in words (0-9, a-z; the text is lowercased); any other code unit counts as one. */
const ASCII_WORD = new Uint8Array(128).map((_, c) => (/[0-9a-z]/.test(String.fromCharCode(c)) ? 1 : 0));

/**
 * Whether `text` may hold a word of more than MAX_TERM_CHARS characters: a run of ASCII letters and
 * digits and non-ASCII code units that long (a loop: a regex retries every start of a run).
 */
function hasLongRun(text: string): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128 && ASCII_WORD[c] === 0) run = 0;
    else if (++run > MAX_TERM_CHARS) return true;
  }
  return false;
}

/**
 * A block's text as the index is given it (blockTerms' `indexed`), without splitting its words: a
 * block with no long run of possible word characters holds no long word and needs no mark (a run of
 * non-ASCII characters that FTS5 splits only looks longer: the words are then split, to be sure).
 */
export function indexedBlock(text: string): string {
  const lower = text.toLowerCase();
  return hasLongRun(lower) ? blockTerms(text).indexed : lower;
}
