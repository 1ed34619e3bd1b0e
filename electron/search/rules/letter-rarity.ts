/**
 * How rare a character is in the text a search scans, by English letter frequency. PURE. Raw tests
 * look for a query's rarest part first: each place a common one is found costs a check.
 */

/** Letters from the rarest to the commonest in English text. */
const RARE_FIRST = 'zqxjkvbpygfwmucldrhsnioate';

/** Higher is rarer: letters by RARE_FIRST, digits (timestamps, ids) as common, other punctuation between. */
export function charRarity(c: number): number {
  if (c >= 48 && c <= 57) return 1;
  const lower = c >= 65 && c <= 90 ? c + 32 : c;
  return lower >= 97 && lower <= 122 ? RARE_FIRST.length - RARE_FIRST.indexOf(String.fromCharCode(lower)) : 13;
}

/** The commonest English words: no letter count tells that "the" is commoner than "eas". */
const COMMON = new Set(
  'the of and to in is it that for was on are as with be at by this have from or an but not you all can had her were one which their said if will what there when who more so no out up do'.split(
    ' ',
  ),
);

/** A word's letters' rarity summed (a common word 0): of two words as long, the higher is likely the rarer. */
export function wordRarity(word: string): number {
  if (COMMON.has(word.toLowerCase())) return 0;
  let r = 0;
  for (let i = 0; i < word.length; i++) r += charRarity(word.charCodeAt(i));
  return r;
}
