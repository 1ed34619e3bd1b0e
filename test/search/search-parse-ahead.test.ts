/**
 * A first build of many files parses them ahead in a worker thread while the indexer inserts: the
 * index it makes holds the same rows as one synced file by file in this thread (entries, blocks,
 * FTS5 words, terms, problems, names, v1 ids), and a file the worker cannot hand over is indexed
 * here as before.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SearchIndexer } from '../../electron/search/indexer';
import { SearchService } from '../../electron/search/search-service';
import { ParseAhead } from '../../electron/search/parse-ahead';
import type { FileSync } from '../../electron/search/indexer';
import { openSearchDatabase, type SearchDatabase } from '../../electron/search/storage/search-db';
import { Rng } from '../fixtures/corpus/rng';
import { assistant, entry, header, jsonl, projectDirName, tempDir, user, writeSession } from '../repo/helpers';

const WORDS = ['alpha', 'beta', 'loadConfig(path)', 'café', 'テスト', 'λόγος', '🚀', 'x_y-z', 'the', 'of'];

async function store(n: number): Promise<string[]> {
  const root = await tempDir('canopy-ahead-root-');
  const dir = join(root, projectDirName('/a'));
  const r = new Rng(9);
  const paths: string[] = [];
  for (let f = 0; f < n; f++) {
    // Some files are v1 (no version: ids come from lines), some have a bad line, a name or a leaf.
    const lines: (Record<string, unknown> | string)[] = [
      f % 5 === 0
        ? { type: 'session', id: `a-${f}`, timestamp: '2026-03-01T10:00:00.000Z', cwd: '/a' }
        : header(`a-${f}`, '/a'),
    ];
    let parent: string | null = null;
    for (let i = 0; i < r.int(5, 260); i++) {
      const id = `f${f}e${i}`;
      const text = Array.from({ length: r.int(1, 120) }, () => r.pick(WORDS)).join(' ');
      lines.push(i % 2 ? assistant(id, parent, text) : user(id, parent, text));
      parent = id;
    }
    if (f % 4 === 1) lines.push('{"type": "message", broken');
    if (f % 3 === 2) lines.push(entry('session_info', `f${f}name`, parent, { name: `name ${f}` }));
    paths.push(await writeSession(dir, `a${f}.jsonl`, lines));
  }
  // A file whose last line is not complete yet: indexed up to it.
  const half = join(dir, 'half.jsonl');
  await writeFile(half, `${jsonl([header('half', '/a'), user('h1', null, 'alpha done')])}{"type":"mess`);
  paths.push(half);
  return paths;
}

/** Every row the index holds, by file path (rowids differ with the order files were written). */
function rows(db: SearchDatabase): unknown {
  const files = db
    .prepare(
      'SELECT id, path, session_id, cwd, name, size, indexed_to, next_line, tail, last_id, leaf_target, has_leaf, v1 FROM files ORDER BY path',
    )
    .all() as { id: number; path: string }[];
  const blocks = db.prepare<[number], { rowid: number; offset: number; end: number }>(
    'SELECT rowid, offset, end FROM blocks WHERE file = ? ORDER BY offset',
  );
  const entries = db.prepare(
    'SELECT line, offset, length, id, parent_id, role, time, tools FROM entries WHERE block = ? ORDER BY line',
  );
  const problems = db.prepare('SELECT line, message FROM problems WHERE file = ? ORDER BY line');
  const terms = [
    ...new Set(db.prepare<[], string>('SELECT list FROM terms').pluck().all().join('\n').split('\n')),
  ].sort();
  return {
    files: files.map(({ id, ...f }) => ({
      ...f,
      blocks: blocks.all(id).map(({ rowid, ...b }) => ({ ...b, entries: entries.all(rowid) })),
      problems: problems.all(id),
    })),
    terms,
  };
}

describe('a first build parsed ahead in a worker', () => {
  it('holds the rows a file-by-file build holds, and answers the same hits', async () => {
    const paths = await store(24);
    const cache = await tempDir('canopy-ahead-cache-');
    const synced: FileSync[] = [];
    const service = new SearchService({ roots: [], env: { CANOPY_CACHE_DIR: cache }, onSynced: (s) => synced.push(s) });
    const plain = openSearchDatabase(join(await tempDir('canopy-ahead-plain-'), 'index.sqlite')).db;
    try {
      await service.update(paths);
      const indexer = new SearchIndexer(plain);
      const one: FileSync[] = [];
      for (const p of paths) one.push(await indexer.sync(p));
      expect(synced).toEqual(one);
      const built = new Database(service.indexPath, { readonly: true });
      try {
        expect(rows(built)).toEqual(rows(plain));
        const words = (db: SearchDatabase, q: string): number =>
          db.prepare<[string], number>('SELECT count(*) FROM fts_text WHERE fts_text MATCH ?').pluck().get(q)!;
        for (const q of ['"loadconfig path"', '"λόγοσ"', '"テスト"', '"name"', 'alpha AND "x y z"'])
          expect(words(built, q), q).toBe(words(plain, q));
      } finally {
        built.close();
      }
      // Every line holding the phrase is a hit, and nothing else.
      const phrase = 'loadConfig(path) café';
      const holding = paths.flatMap((p) => readFileSync(p, 'utf8').split('\n')).filter((l) => l.includes(phrase));
      const page = await service.query(`"${phrase}"`, { limit: 5000 });
      expect(holding.length).toBeGreaterThan(0);
      expect(page.hits.length).toBe(holding.length);
    } finally {
      service.close();
      plain.close();
    }
  }, 60_000);

  it('parses files ahead in order of asking; once closed, leaves every file to the indexer', async () => {
    const paths = await store(8);
    const ahead = new ParseAhead(paths);
    try {
      const first = await ahead.take(0);
      expect(first?.path).toBe(paths[0]);
      expect(first?.blocks.length).toBeGreaterThan(0);
      expect((await ahead.take(1))?.path).toBe(paths[1]);
      ahead.close();
      expect(await ahead.take(2)).toBeNull();
      expect(await ahead.take(7)).toBeNull();
    } finally {
      ahead.close();
    }
  });

  it('keeps its process alive while a file is asked of it (its worker is otherwise idle and let go)', async () => {
    const [path] = await store(1);
    const source = join(__dirname, '../../electron/search/parse-ahead.ts');
    const script = `const j = require('jiti').createJiti(${JSON.stringify(source)});
      new (j(${JSON.stringify(source)}).ParseAhead)([${JSON.stringify(path)}]).take(0).then((p) => process.stdout.write(p ? p.path : 'null'));`;
    const out = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['-e', script], { cwd: join(__dirname, '../..') }, (err, stdout) =>
        err ? reject(err) : resolve(stdout),
      ),
    );
    expect(out).toBe(path);
  }, 30_000);
});
