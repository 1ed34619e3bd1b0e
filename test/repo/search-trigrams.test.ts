import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rarestTrigrams, trigramExpression, trigramsOf } from '../../electron/repo/search/trigrams';
import { openSearchDatabase } from '../../electron/storage/search-db';
import { tempDir } from './helpers';

describe('the trigrams a query asks FTS5 for', () => {
  it('are every trigram of the substrings, lowercased, spaces included', () => {
    expect(trigramsOf(['Red fox', 'ox'])).toEqual(['red', 'ed ', 'd f', ' fo', 'fox']);
    expect(trigramExpression(['a"b', 'fox'])).toBe('"a""b" AND "fox"');
    expect(trigramExpression([])).toBeNull();
  });

  it('are the rarest few, the common ones left out past the rarest two', async () => {
    const { db } = openSearchDatabase(join(await tempDir('canopy-search-trigrams-'), 'index.sqlite'));
    try {
      const put = db.prepare<[number, string]>('INSERT INTO fts_text (rowid, body) VALUES (?, ?)');
      const block = db.prepare<[number]>('INSERT INTO blocks (rowid, file, offset, end) VALUES (?, 1, 0, 1)');
      // 20 blocks: "the" in all, "zeb" in 1, "qua" in 3, letters a..t in 2 each.
      for (let i = 1; i <= 20; i++) {
        const letter = String.fromCharCode(96 + Math.ceil(i / 2));
        put.run(i, `the ${letter.repeat(3)}${i === 7 ? ' zeb' : ''}${i <= 3 ? ' qua' : ''}`);
        block.run(i);
      }
      expect(rarestTrigrams(db, ['the', 'qua', 'zeb', 'aaa', 'bbb'])).toEqual(['zeb', 'aaa', 'bbb', 'qua']);
      const many = rarestTrigrams(db, ['the', 'qua', 'zeb', 'aaa', 'bbb', 'ccc', 'ddd', 'eee', 'fff', 'ggg', 'hhh']);
      expect(many).toEqual(['zeb', 'aaa', 'bbb', 'ccc', 'ddd', 'eee', 'fff', 'ggg']);
      // Two or fewer: all of them, whatever their counts.
      expect(rarestTrigrams(db, ['the', 'zeb'])).toEqual(['the', 'zeb']);
      // Only common ones: the rarest two are kept (an AND of at least something).
      expect(rarestTrigrams(db, ['the', 'he ', 'e a'])).toEqual(['e a', 'the']);
      // The index grows (as while it is first built): counts taken before are taken again.
      for (let i = 21; i <= 60; i++) {
        put.run(i, 'zeb zeb');
        block.run(i);
      }
      expect(rarestTrigrams(db, ['zeb', 'aaa', 'bbb', 'ccc'])).toEqual(['aaa', 'bbb', 'ccc', 'zeb']);
    } finally {
      db.close();
    }
  });
});
