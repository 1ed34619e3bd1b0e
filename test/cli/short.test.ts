import { describe, expect, it } from 'vitest';
import { short } from '../../electron/cli/cli-io';
import { Rng } from '../fixtures/corpus/rng';

/** The whole text folded, then cut (what short() must equal, reading only a prefix). */
function naive(text: string, max = 100): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

describe('short', () => {
  it('equals folding the whole text, for texts of every length around its prefixes', () => {
    const r = new Rng(7);
    const pieces = ['a', 'bc', ' ', '   ', '\n', '\t\n ', 'ü', '🌳', 'word '];
    for (let t = 0; t < 3000; t++) {
      const max = [1, 2, 10, 100][t % 4]!;
      const n = Math.floor(r.next() * 3000);
      let text = '';
      // Long whitespace runs now and then, so a prefix may end inside one or hold only space.
      while (text.length < n)
        text +=
          r.next() < 0.05 ? ' '.repeat(Math.floor(r.next() * 900)) : pieces[Math.floor(r.next() * pieces.length)]!;
      expect(short(text, max), JSON.stringify({ t, max, length: text.length })).toBe(naive(text, max));
    }
  });

  it('reads a prefix of a long text: the same answer for a megabyte of output', () => {
    const text = `${'x '.repeat(60)}${' '.repeat(1000)}${'y'.repeat(1 << 20)}`;
    expect(short(text)).toBe(naive(text));
    expect(short(`${' '.repeat(5000)}end   `)).toBe('end');
  });
});
