/**
 * The term list grouped by its terms' first and last characters (search/term-index.ts) answers
 * as a scan of the list does: the terms starting, ending with or containing a word (CJK, emoji and
 * one-character words too), past `max` null, and terms added since it was last asked.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ftsTerm } from '../../electron/search/rules/fts-terms';
import { termIndex } from '../../electron/search/term-index';
import { openSearchDatabase } from '../../electron/search/storage/search-db';
import { Rng } from '../fixtures/corpus/rng';
import { tempDir } from '../repo/helpers';

const scan = (terms: readonly string[], asked: string, where: 'in' | 'end' | 'start', max: number): string[] | null => {
  // Terms are listed as FTS5 folds them (ς as σ): a word is looked up folded alike.
  const word = ftsTerm(asked);
  const out = [...new Set(terms)].filter((t) =>
    where === 'in' ? t.includes(word) : where === 'end' ? t.endsWith(word) : t.startsWith(word),
  );
  return out.length > max ? null : out;
};

describe('the term index', () => {
  it('finds the terms starting, ending with and containing a word as a scan does, and terms added later', async () => {
    const db = openSearchDatabase(join(await tempDir('canopy-term-index-'), 'index.sqlite')).db;
    try {
      const r = new Rng(3);
      const parts = ['a', 'the', 'for', 'conf', 'ig', '日本', '語', '🚀', 'ß', 'x1', 'é', 'λόγοσ', 'σ'];
      const make = (): string => Array.from({ length: r.int(1, 4) }, () => r.pick(parts)).join('');
      const terms: string[] = [];
      const add = (n: number): void => {
        const insert = db.prepare('INSERT INTO terms (list) VALUES (?)');
        for (let i = 0; i < n; i++) {
          const t = make();
          terms.push(t);
          insert.run(t);
        }
      };
      add(400);
      for (const round of [0, 1]) {
        const index = termIndex(db);
        for (const word of [...parts, 'forthe', 'gi', 'h', '本語', '語🚀', 'zz', 'λόγος', 'ς', make(), make()]) {
          for (const where of ['start', 'end', 'in'] as const) {
            for (const max of [3, 1000]) {
              const got = index.matching(word, where, max);
              const want = scan(terms, word, where, max);
              expect(got && [...got].sort(), `${round} ${where} ${word} ${max}`).toEqual(want && [...want].sort());
            }
          }
        }
        add(150); // some new, some already listed
      }
    } finally {
      db.close();
    }
  });
});
