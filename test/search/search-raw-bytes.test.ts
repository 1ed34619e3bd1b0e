/**
 * The byte pre-test of a query's words (search/raw-bytes.ts) decides as the case-insensitive
 * regex on the bytes read as latin1 decides, in any case mix and beside any bytes (UTF-8 of other
 * characters, JSON escapes), within the range it is given and not past it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSearchQuery, type SearchQuery } from '../../electron/search/rules/search-query';
import { rawNeedles } from '../../electron/search/rules/raw-filter';
import { rawBytesTest } from '../../electron/search/raw-bytes';

function parse(text: string): SearchQuery {
  const r = parseSearchQuery(text);
  if (!r.ok) throw new Error(r.error);
  return r.query;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What the line test's word regexes decide on the same bytes. */
function byRegex(q: SearchQuery, b: Buffer, start: number, end: number): boolean {
  const line = b.toString('latin1', start, end);
  return rawNeedles(
    q,
    q.terms.map(() => false),
  ).every((w) => new RegExp(escapeRegExp(w), 'i').test(line));
}

/** `word` with each letter's case drawn from `bits`. */
const mixCase = (word: string, bits: number): string =>
  Array.from(word, (c, i) => ((bits >> i) & 1 ? c.toUpperCase() : c.toLowerCase())).join('');

describe('the byte pre-test', () => {
  it('finds a word in any case mix, and not a near miss', () => {
    const q = parse('"fox jumps"');
    const test = rawBytesTest(q, [false]);
    for (const text of ['a FoX jUmPs', 'the fOX JUMPS over', '"Fox","jumps"', 'JUMPS. fox']) {
      const b = Buffer.from(text);
      expect(test(b, 0, b.length), text).toBe(true);
    }
    for (const text of ['a fo x jumps', 'fox jump', 'f\u00f6x jumps', 'fox jum\u00d0s']) {
      const b = Buffer.from(text, 'latin1');
      expect(test(b, 0, b.length), text).toBe(false);
    }
  });

  it('looks only within its range', () => {
    const test = rawBytesTest(parse('zebra'), [false]);
    const b = Buffer.from('xx zebra yy ZEBRA');
    expect(test(b, 0, 8)).toBe(true);
    expect(test(b, 0, 7)).toBe(false);
    expect(test(b, 4, 16)).toBe(false);
    expect(test(b, 12, 17)).toBe(true);
    expect(test(b, 12, 16)).toBe(false);
    expect(test(b, 13, 17)).toBe(false);
  });

  it('decides as /word/i on latin1 does (random bytes, planted words in random case)', () => {
    const words = ['zq', 'the', 'droundzea', 'a_b', 'x1y2', 'Config(pa', "it's"];
    const byte = fc.oneof(
      fc.integer({ min: 0, max: 255 }),
      fc.constantFrom(...Buffer.from('thedroundzeaconfigzqxy_(\'12 "\\')),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...words),
        fc.array(byte, { maxLength: 60 }),
        fc.array(byte, { maxLength: 60 }),
        fc.nat(),
        fc.boolean(),
        fc.nat(80),
        fc.nat(80),
        (word, before, after, bits, plant, s, e) => {
          const q = parse(word);
          const planted = plant ? Buffer.from(mixCase(word, bits), 'latin1') : Buffer.alloc(0);
          const b = Buffer.concat([Buffer.from(before), planted, Buffer.from(after)]);
          const start = Math.min(s, b.length);
          const end = Math.max(start, b.length - Math.min(e, b.length));
          expect(rawBytesTest(q, [false])(b, start, end)).toBe(byRegex(q, b, start, end));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
