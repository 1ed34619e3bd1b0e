/**
 * The word index: words split as FTS5's unicode61 splits them; a substring's words widened to the
 * terms that can hold them, so the index never loses a block that holds the substring (random
 * substrings of the indexed text: word parts, punctuation, CJK, emoji, a long word), while a rare
 * phrase leaves few blocks; planted items are found at their entry through the service.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexedText, searchFields } from '../../electron/search/rules/search-text';
import {
  wordTokens,
  blockTerms,
  LONG_WORD,
  substringPlan,
  type TermSource,
} from '../../electron/search/rules/word-tokens';
import { candidateBlocks, EVERY, type CandidateCosts } from '../../electron/search/candidate-blocks';
import { termIndex } from '../../electron/search/term-index';
import { SearchIndexer } from '../../electron/search/indexer';
import { SearchService } from '../../electron/search/search-service';
import { termList } from '../../electron/search/term-list';
import { openSearchDatabase, type SearchDatabase } from '../../electron/search/storage/search-db';
import { Rng } from '../fixtures/corpus/rng';
import { ftsProbe } from '../fixtures/fts-probe';
import { LONG, PLANTED_BASE } from '../fixtures/planted-words';
import { assistant, header, projectDirName, tempDir, user, writeSession } from '../repo/helpers';

const PLANTED = [
  ...PLANTED_BASE,
  'a.b(c)=d; x_y-z + 42 px',
  'first line\nsecond line with Ünïcode',
  'İstanbul ΣΊΣΥΦΟΣ ß straße',
];

function fakeTerms(list: string[]): TermSource {
  return {
    matching: (w, where, max) => {
      const out = list.filter((t) =>
        where === 'in' ? t.includes(w) : where === 'end' ? t.endsWith(w) : t.startsWith(w),
      );
      return out.length > max ? null : out;
    },
  };
}

describe('words as the index splits them', () => {
  it('are what FTS5 keeps whole, lowercased', () => {
    expect(wordTokens('loadConfig(path) — naïve x_y 42px')).toEqual(['loadconfig', 'path', 'naïve', 'x', 'y', '42px']);
    expect(wordTokens('日本語 テキスト🚀ok')).toEqual(['日本語', 'テキスト', 'ok']);
    expect(wordTokens('...')).toEqual([]);
    expect(blockTerms(`A ${LONG} b a`)).toEqual({
      indexed: `a ${LONG.toLowerCase()} b a ${LONG_WORD}`,
      terms: ['a', 'b', 'a'],
    });
    // `İ` lowers to `i` and a combining dot, which FTS5 keeps in the word.
    expect(blockTerms('ΣΊΣΥΦΟΣ İ').terms).toEqual(['σίσυφος', 'i\u0307']);
  });

  it('widen a lone word to the terms holding it, a phrase’s first and last words to those ending and starting with them', () => {
    const terms = fakeTerms(['loadconfig', 'config', 'configs', 'reconfig', 'path', 'paths', 'value']);
    const L = `"${LONG_WORD}"`;
    expect(substringPlan('Config', terms)).toEqual({
      kind: 'any',
      expr: `("loadconfig" OR "config" OR "configs" OR "reconfig" OR ${L})`,
    });
    // The phrase with its first word whole (main), without it (rest, every hit), the longer terms
    // ending with its first word (glued) and what follows them; the last word spelled out when few
    // terms start with it.
    expect(substringPlan('config pa', terms)).toEqual({
      kind: 'phrase',
      main: { exact: '("config path" OR "config paths")', prefix: null },
      rest: { exact: '("path" OR "paths")', prefix: null },
      glued: ['loadconfig', 'reconfig'],
      follow: [],
      long: L,
    });
    // A first word that is no term itself: no main phrase.
    expect(substringPlan('fig the value of pa', terms)).toEqual({
      kind: 'phrase',
      main: null,
      rest: { exact: '("the value of path" OR "the value of paths")', prefix: null },
      glued: ['loadconfig', 'config', 'reconfig'],
      follow: ['the', 'value', 'of'],
      long: `(${L} AND "the value of")`,
    });
    expect(substringPlan(' - ', terms)).toBeNull();
    // No term ends (or starts) so: only a block with a long word can hold it.
    expect(substringPlan('zebra path', terms)).toEqual({ kind: 'any', expr: L });
    // Too many terms start with the last word to spell out: cut before it, or one prefix query (its cost: 41 terms).
    const lasts = fakeTerms(['words', 'the', ...Array.from({ length: 40 }, (_, i) => `x${i}`)]);
    expect(substringPlan('the words x', lasts)).toMatchObject({
      main: { exact: '"the words"', prefix: { expr: '"the words x" *', terms: 40 } },
      rest: { exact: '"words"', prefix: { expr: '"words x" *', terms: 40 } },
    });
    expect(substringPlan('words x', lasts)).toMatchObject({ rest: { exact: null, prefix: { expr: '"x" *' } } });
    // Too many end with the first word to name: null (the rest alone narrows); a lone word narrows nothing.
    const many = fakeTerms([...Array.from({ length: 3000 }, (_, i) => `x${i}e`), 'words']);
    expect(substringPlan('e', many)).toBeNull();
    expect(substringPlan('e words', many)).toMatchObject({
      main: { exact: '"e words"' },
      rest: { exact: '"words"' },
      glued: null,
    });
  });
});

describe('the word index', () => {
  let root: string;
  let db: SearchDatabase;
  const texts: { block: number; text: string }[] = [];

  beforeAll(async () => {
    // Kept for the whole describe (tempDir's folders go after each test).
    root = await mkdtemp(join(tmpdir(), 'canopy-words-root-'));
    const r = new Rng(11);
    const vocab = ['alpha', 'beta', 'gamma', 'the', 'of', 'and', 'run', 'test', 'value', 'it', 'is', 'not', 'same'];
    const paths: string[] = [];
    // 40 files of one block each (under BLOCK_ENTRIES), each planted item in 5 of them.
    for (let f = 0; f < 40; f++) {
      const lines = [header(`w-${f}`, '/w')];
      let parent: string | null = null;
      for (let i = 0; i < 60; i++) {
        const id = `f${f}e${i}`;
        const filler = Array.from({ length: r.int(3, 40) }, () => r.pick(vocab)).join(r.pick([' ', ', ', '. ']));
        const text = i === 30 ? `${filler} ${PLANTED[f % PLANTED.length]}` : filler;
        lines.push(i % 2 ? assistant(id, parent, text) : user(id, parent, text));
        parent = id;
      }
      paths.push(await writeSession(join(root, projectDirName('/w')), `w${f}.jsonl`, lines));
    }
    db = openSearchDatabase(join(await tempDir('canopy-words-cache-'), 'index.sqlite')).db;
    const indexer = new SearchIndexer(db);
    for (const p of paths) await indexer.sync(p);
    const entries = db.prepare<[], { block: number; offset: number; length: number; path: string }>(
      'SELECT e.block, e.offset, e.length, f.path FROM entries e JOIN blocks b ON b.rowid = e.block JOIN files f ON f.id = b.file',
    );
    for (const { block, offset, length, path } of entries.all()) {
      const line = readFileSync(path)
        .subarray(offset, offset + length)
        .toString('utf8');
      const text = indexedText(searchFields(JSON.parse(line) as Record<string, unknown>));
      if (text) texts.push({ block, text });
    }
  });
  afterAll(async () => {
    db?.close();
    await rm(root, { recursive: true, force: true });
  });

  // Each way through the plan: as weighed for the 10k store (here the rest of a phrase is always
  // few blocks), never reading what a query can narrow, and always reading rather than narrowing.
  const WAYS: [string, CandidateCosts | undefined][] = [
    ['as weighed', undefined],
    ['narrowing all it can', { blockMs: 1e9, fewBlocks: 0, sample: 64 }],
    ['narrowing the least', { blockMs: 0, fewBlocks: 0, sample: 64 }],
    ['sampling the words a first word ends', { blockMs: 0.15, fewBlocks: 0, sample: 2 }],
  ];
  it.each(WAYS)('never loses the block holding a substring (2,000 random substrings, any case), %s', (_, costs) => {
    const r = new Rng(5);
    const terms = termIndex(db);
    let narrowed = 0;
    for (let k = 0; k < 2000; k++) {
      const { block, text } = r.pick(texts);
      const chars = Array.from(text);
      const from = r.int(0, chars.length - 1);
      let sub = chars.slice(from, from + r.int(1, 30)).join('');
      if (k % 3 === 1) sub = sub.toUpperCase();
      // Only what pi's rule finds there (`ß` upper-cases to `SS`, a final `Σ` alone lowers to `σ`).
      if (!text.toLowerCase().includes(sub.toLowerCase())) continue;
      const found = candidateBlocks(db, [sub], terms, costs);
      if (found === EVERY) continue;
      narrowed++;
      expect(found.includes(block), `${JSON.stringify(sub)} → ${JSON.stringify(substringPlan(sub, terms))}`).toBe(true);
    }
    expect(narrowed).toBeGreaterThan(costs?.blockMs === 0 ? 500 : 1500);
  });

  it('leaves few blocks for a rare phrase, and for an absent one only those with a long word', () => {
    const terms = termIndex(db);
    const narrowed = { blockMs: 1e9, fewBlocks: 0, sample: 64 };
    const blocksOfPhrase = (phrase: string): Set<number> =>
      new Set(candidateBlocks(db, [phrase], terms, narrowed) ?? []);
    const all = db.prepare<[], number>('SELECT count(*) FROM blocks').pluck().get()!;
    for (const phrase of ['loadConfig(path', 'naïve Ärger', 'テキスト', 'straße']) {
      const holding = new Set(
        texts.filter((t) => t.text.toLowerCase().includes(phrase.toLowerCase())).map((t) => t.block),
      );
      const found = blocksOfPhrase(phrase);
      expect(holding.size).toBeGreaterThan(0);
      for (const b of holding) expect(found.has(b)).toBe(true);
      expect(found.size).toBeLessThan(all);
    }
    // An absent phrase: only blocks with a long word (which may hold anything) are left.
    const absent = blocksOfPhrase('zebra crossing');
    for (const b of absent) expect(texts.some((t) => t.block === b && t.text.includes(LONG))).toBe(true);
    expect(absent.size).toBeLessThan(all / 4);
    // A part of the long word: only blocks marked as holding one.
    const part = blocksOfPhrase(LONG.slice(3, 20));
    expect(part.size).toBeGreaterThan(0);
    for (const b of part) expect(texts.some((t) => t.block === b && t.text.includes(LONG))).toBe(true);
  });

  it('finds planted items at their entries through the service, as the files do', async () => {
    const cache = await tempDir('canopy-words-svc-');
    const s = new SearchService({ roots: [root], env: { CANOPY_CACHE_DIR: cache } });
    try {
      const files = db.prepare<[], string>('SELECT path FROM files').pluck().all();
      await s.update(files);
      for (const q of [
        'Config(pa',
        'loadConfig',
        '"café in Zürich"',
        'テキストを',
        '🚀 done',
        '"it\'s fine"',
        'x_y-z',
        'line with Ün',
        'İstanbul',
      ]) {
        const page = await s.query(q, { limit: 1000 });
        const direct = await s.query(q, { limit: 1000, paths: new Set(files) });
        expect(page.hits.length, q).toBeGreaterThan(0);
        expect(page.hits.map((h) => `${h.path}:${h.line}`).sort()).toEqual(
          direct.hits.map((h) => `${h.path}:${h.line}`).sort(),
        );
      }
    } finally {
      s.close();
    }
  });
  it('widens to a term listed twice (two processes added it at once) only once', () => {
    expect(termList(db).matching('config', 'in', 400)).toEqual(['loadconfig']);
    db.prepare('INSERT INTO terms (list) VALUES (?)').run('loadconfig');
    expect(termList(db).matching('config', 'in', 400)).toEqual(['loadconfig']);
  });
});

describe('the term list', () => {
  it('keeps the words of a sync that was rolled back and then done again', async () => {
    const root = await tempDir('canopy-words-rb-');
    // Several MiB: the scan gives the loop a turn (and the pause hook a call) after its first slice.
    const lines: Record<string, unknown>[] = [header('rb', '/w')];
    let parent: string | null = null;
    for (let i = 0; i < 20_000; i++) {
      const id = `e${i}`;
      lines.push(user(id, parent, `${i === 0 ? 'zyxwordearly ' : ''}${'filler words here '.repeat(20)}${i}`));
      parent = id;
    }
    const path = await writeSession(join(root, projectDirName('/w')), 'rb.jsonl', lines);
    const index = openSearchDatabase(join(await tempDir('canopy-words-rb-cache-'), 'index.sqlite')).db;
    try {
      const indexer = new SearchIndexer(index);
      const stop = new AbortController();
      // Stopped at its first pause point, after its first blocks (and their words) were written.
      await expect(
        indexer.sync(path, stop.signal, () => {
          stop.abort();
          return null;
        }),
      ).rejects.toThrow();
      expect(index.prepare('SELECT count(*) FROM blocks').pluck().get()).toBe(0);
      await indexer.sync(path);
      expect(termList(index).matching('zyxwordearly', 'in', 10)).toEqual(['zyxwordearly']);
    } finally {
      index.close();
    }
  }, 60_000);
});

describe('the table of word characters', () => {
  it('is the bundled SQLite’s: every code point splits as FTS5 splits it', () => {
    const { sqlite, ins } = ftsProbe('instance');
    try {
      sqlite.transaction(() => {
        for (let cp = 0; cp < 0x110000; cp++) {
          if (cp >= 0xd800 && cp <= 0xdfff) continue;
          ins.run(cp + 1, `0${String.fromCodePoint(cp)}0`);
        }
      })();
      const inWord = new Set(
        sqlite.prepare<[], number>("SELECT DISTINCT doc - 1 FROM v WHERE term <> '0'").pluck().all(),
      );
      const wrong: string[] = [];
      for (let cp = 0; cp < 0x110000; cp++) {
        if (cp >= 0xd800 && cp <= 0xdfff) continue;
        const here = wordTokens(`0${String.fromCodePoint(cp)}0`).length === 1;
        if (here !== inWord.has(cp) && wrong.length < 10) wrong.push(cp.toString(16));
      }
      expect(wrong).toEqual([]);
    } finally {
      sqlite.close();
    }
  }, 60_000);
});
