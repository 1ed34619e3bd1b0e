/** Which of a phrase's words a raw test looks for first: the rarer, by letters, and never a common English word. */
import { describe, expect, it } from 'vitest';
import { charRarity, wordRarity } from '../../../electron/search/rules/letter-rarity';

describe('letter rarity', () => {
  it('ranks rare letters above common ones, in either case, and digits with the commonest', () => {
    expect(charRarity('z'.charCodeAt(0))).toBeGreaterThan(charRarity('e'.charCodeAt(0)));
    expect(charRarity('Q'.charCodeAt(0))).toBe(charRarity('q'.charCodeAt(0)));
    expect(charRarity('7'.charCodeAt(0))).toBe(charRarity('e'.charCodeAt(0)));
    expect(charRarity('7'.charCodeAt(0))).toBeLessThan(charRarity('t'.charCodeAt(0)));
  });

  it('puts the commonest words below any other word of their length', () => {
    expect(wordRarity('oax')).toBeGreaterThan(wordRarity('eas'));
    for (const common of ['the', 'The', 'and', 'for', 'this', 'are'])
      for (const other of ['eas', 'vox', 'hoa', 'cain', 'plo', 'flux'])
        expect(wordRarity(other), `${other} / ${common}`).toBeGreaterThan(wordRarity(common));
  });
});
