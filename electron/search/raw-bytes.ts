/**
 * The cheap half of the raw line test (search/rules/raw-filter.ts), on bytes: every word the query
 * requires is there in some ASCII case, as /word/i finds it in the bytes read as latin1. A piece or
 * line failing it is never made a string, and no regex runs over it: each word is looked for by two
 * of its rarest bytes in each of their four cases with Buffer.indexOf (memchr and a compare, in C++,
 * against ~1.5 GB/s for a case-insensitive regex here), and checked whole where they are found.
 */
import { charRarity as rarity } from './rules/letter-rarity';
import { rawNeedles } from './rules/raw-filter';
import { type SearchQuery } from './rules/search-query';

export type RawBytesTest = (bytes: Buffer, start: number, end: number) => boolean;

const isLower = (c: number): boolean => c >= 97 && c <= 122;
const cases = (c: number): number[] => (isLower(c) ? [c, c - 32] : [c]);

function caselessFinder(word: string): RawBytesTest {
  // rawNeedles are printable ASCII: their lowercase is their bytes.
  const codes = Array.from(word.toLowerCase(), (c) => c.charCodeAt(0));
  const n = codes.length;
  // The anchor: two neighbouring bytes, the first as rare as can be (indexOf runs memchr on it).
  let at = 0;
  for (let i = 1; i < Math.max(1, n - 1); i++) if (rarity(codes[i]!) > rarity(codes[at]!)) at = i;
  const width = Math.min(2, n);
  const anchors: Buffer[] = [];
  for (const a of cases(codes[at]!))
    for (const b of width === 2 ? cases(codes[at + 1]!) : [-1]) anchors.push(Buffer.from(b < 0 ? [a] : [a, b]));
  const whole = (b: Buffer, from: number): boolean => {
    for (let k = 0; k < n; k++) {
      const y = b[from + k]!;
      const c = codes[k]!;
      if (y !== c && !(isLower(c) && y === c - 32)) return false;
    }
    return true;
  };
  return (bytes, start, end) => {
    // A view of the range alone: indexOf would otherwise search on past its end.
    const b = bytes.subarray(start, end);
    for (const anchor of anchors) {
      for (let p = b.indexOf(anchor, at); p >= 0 && p - at + n <= b.length; p = b.indexOf(anchor, p + 1)) {
        if (whole(b, p - at)) return true;
      }
    }
    return false;
  };
}

/** Whether `bytes[start, end)` hold every word the query's raw line test requires. */
export function rawBytesTest(query: SearchQuery, metBySession: readonly boolean[]): RawBytesTest {
  const finders = rawNeedles(query, metBySession).map(caselessFinder);
  return (b, start, end) => finders.every((f) => f(b, start, end));
}
