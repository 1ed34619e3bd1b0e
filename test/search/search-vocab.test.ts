/**
 * A first build (bulk load) lists its terms from FTS5's own vocabulary instead of splitting each
 * block's words: the list it makes equals the one the per-block split makes, on planted text with
 * word parts, diacritics, CJK, emoji, Greek and a long word; FTS5's folds past toLowerCase are known;
 * a file is marked indexed only once its terms are listed.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blockTerms, LONG_WORD } from '../../electron/search/rules/word-tokens';
import { ftsTerm, indexedBlock } from '../../electron/search/rules/fts-terms';
import { SearchIndexer } from '../../electron/search/indexer';
import { termList } from '../../electron/search/term-list';
import { openSearchDatabase, type SearchDatabase } from '../../electron/search/storage/search-db';
import { Rng } from '../fixtures/corpus/rng';
import { ftsProbe } from '../fixtures/fts-probe';
import { LONG, PLANTED_BASE } from '../fixtures/planted-words';
import { assistant, header, projectDirName, tempDir, user, writeSession } from '../repo/helpers';

const PLANTED = [...PLANTED_BASE, 'ΛΌΓΟΣ λόγος µ ſ ϐ ϑ ϕ ϖ ϰ ϱ ϵ ẛ ι and ΣΊΣΥΦΟΣ', 'İstanbul ß straße x_y-z 42px'];

async function sessions(n: number): Promise<string[]> {
  const root = await tempDir('canopy-vocab-root-');
  const r = new Rng(3);
  const words = ['alpha', 'beta', 'the', 'of', 'value', 'Grüße', 'テスト', 'x1', 'µs'];
  const paths: string[] = [];
  for (let f = 0; f < n; f++) {
    const lines = [header(`v-${f}`, '/v')];
    let parent: string | null = null;
    for (let i = 0; i < 40; i++) {
      const id = `f${f}e${i}`;
      const filler = Array.from({ length: r.int(2, 30) }, () => r.pick(words)).join(' ');
      const text = i % 7 === 3 ? `${filler} ${PLANTED[(f + i) % PLANTED.length]}` : filler;
      lines.push(i % 2 ? assistant(id, parent, text) : user(id, parent, text));
      parent = id;
    }
    paths.push(await writeSession(join(root, projectDirName('/v')), `v${f}.jsonl`, lines));
  }
  return paths;
}

const listed = (db: SearchDatabase): string[] =>
  [...new Set(db.prepare<[], string>('SELECT list FROM terms').pluck().all().join('\n').split('\n'))].sort();

async function build(paths: string[], bulk: boolean): Promise<SearchDatabase> {
  const db = openSearchDatabase(join(await tempDir('canopy-vocab-cache-'), 'index.sqlite')).db;
  const indexer = new SearchIndexer(db);
  if (bulk) indexer.beginBulk();
  for (const p of paths) await indexer.sync(p);
  indexer.endBulk();
  return db;
}

describe('the term list of a bulk load', () => {
  it('equals the list split block by block, and answers the same blocks', async () => {
    const paths = await sessions(12);
    const split = await build(paths, false);
    const vocab = await build(paths, true);
    try {
      const terms = listed(vocab);
      expect(terms).toEqual(listed(split));
      expect(terms).toContain('λόγοσ');
      expect(terms).toContain('日本語のテキストを検索する');
      expect(terms).not.toContain(LONG.toLowerCase());
      expect(terms).not.toContain(LONG_WORD);
      for (const [word, where] of [
        ['config', 'in'],
        ['λόγος', 'in'],
        ['ΣΟΣ'.toLowerCase(), 'end'],
        ['テス', 'start'],
        ['ß', 'in'],
      ] as const) {
        expect(termList(vocab).matching(word, where, 100)?.sort()).toEqual(
          termList(split).matching(word, where, 100)?.sort(),
        );
      }
      expect(termList(vocab).matching('λόγος', 'in', 10)).toEqual(['λόγοσ']);
      const blocks = (db: SearchDatabase, q: string): number[] =>
        db.prepare<[string], number>('SELECT rowid FROM fts_text WHERE fts_text MATCH ?').pluck().all(q);
      for (const q of ['"loadconfig path"', `"${LONG_WORD}"`, '"λόγοσ"', '"テスト"', '"x1" AND "ß"'])
        expect(blocks(vocab, q), q).toEqual(blocks(split, q));
    } finally {
      split.close();
      vocab.close();
    }
  });

  it('marks a file indexed only once its terms are listed', async () => {
    const [path] = await sessions(1);
    const db = openSearchDatabase(join(await tempDir('canopy-vocab-mark-'), 'index.sqlite')).db;
    try {
      const indexer = new SearchIndexer(db);
      indexer.beginBulk();
      expect((await indexer.sync(path!)).kind).toBe('full');
      const indexedTo = db.prepare<[], number>('SELECT indexed_to FROM files').pluck();
      expect(indexedTo.get()).toBe(0);
      expect(termList(db).matching('alpha', 'in', 10)).toEqual([]);
      // Synced again in the same load: its terms are listed first, and it is known unchanged.
      expect((await indexer.sync(path!)).kind).toBe('unchanged');
      expect(indexedTo.get()).toBeGreaterThan(0);
      expect(termList(db).matching('alpha', 'in', 10)).toEqual(['alpha']);
      indexer.endBulk();
    } finally {
      db.close();
    }
  });

  it('lists the terms before a query once enough was indexed since, and not before', async () => {
    const root = await tempDir('canopy-vocab-due-');
    const lines: Record<string, unknown>[] = [header('due', '/v')];
    for (let i = 0; i < 2100; i++)
      lines.push(user(`e${i}`, i ? `e${i - 1}` : null, `duefiller${i} ${'word '.repeat(200)}`));
    const big = await writeSession(join(root, projectDirName('/v')), 'big.jsonl', lines);
    const [small] = await sessions(1);
    const db = openSearchDatabase(join(await tempDir('canopy-vocab-due-cache-'), 'index.sqlite')).db;
    try {
      const indexer = new SearchIndexer(db);
      indexer.beginBulk();
      await indexer.sync(small!);
      indexer.listTermsIfDue();
      expect(termList(db).matching('alpha', 'in', 10)).toEqual([]);
      await indexer.sync(big);
      indexer.listTermsIfDue();
      expect(termList(db).matching('duefiller2099', 'in', 10)).toEqual(['duefiller2099']);
      expect(db.prepare<[], number>('SELECT count(*) FROM files WHERE indexed_to > 0').pluck().get()).toBe(2);
      indexer.endBulk();
    } finally {
      db.close();
    }
  });
});

describe('FTS5 folding past toLowerCase', () => {
  it('is ftsTerm: every code point’s word is the term FTS5 lists', () => {
    const { sqlite, ins } = ftsProbe('row', true);
    try {
      const split = new Set<string>();
      sqlite.transaction(() => {
        let batch: string[] = [];
        for (let cp = 0x21; cp < 0x110000; cp++) {
          if (cp >= 0xd800 && cp <= 0xdfff) continue;
          const text = `a${String.fromCodePoint(cp)}b`;
          for (const t of blockTerms(text).terms) split.add(ftsTerm(t));
          batch.push(text);
          if (batch.length === 1000 || cp === 0x10ffff) {
            ins.run(cp, indexedBlock(batch.join(' ')));
            batch = [];
          }
        }
      })();
      const vocab = sqlite.prepare<[], string>('SELECT term FROM v').pluck().all();
      expect(vocab.filter((t) => !split.has(t)).slice(0, 10)).toEqual([]);
      expect(vocab.length).toBe(split.size);
    } finally {
      sqlite.close();
    }
  }, 60_000);

  it('a block is marked as holding a long word exactly when its split says so', () => {
    for (const text of [
      'short words only',
      `x ${LONG} y`,
      `${'a'.repeat(64)} b`,
      `${'a'.repeat(65)}`,
      `a/${'b'.repeat(70)}`,
      `/home/${'b'.repeat(60)}/src/${'c'.repeat(60)}.ts`,
      'é'.repeat(70),
      `${'x'.repeat(40)}é${'y'.repeat(40)}`,
      `${'x'.repeat(40)}—${'y'.repeat(40)}`,
    ])
      expect(indexedBlock(text)).toBe(blockTerms(text).indexed);
  });
});
