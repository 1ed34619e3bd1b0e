/**
 * The index's block rows (schema 7): rowids 1, 2, 3… never reused, and each block's entries packed
 * in its row, read back by filters, hits and branch:active through appends, a fork, truncation and
 * a rewrite, by this process and another one sharing the index.
 */
import { appendFile, readFile, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BLOCK_ENTRIES, SearchIndexer } from '../../electron/search/indexer';
import { SearchService } from '../../electron/search/search-service';
import { openSearchDatabase } from '../../electron/search/storage/search-db';
import { assistant, jsonl, header, projectDirName, tempDir, user, writeSession } from '../repo/helpers';

type Rec = Record<string, unknown>;

/** `count` entries in one chain (more than a block), user and assistant in turn, each with "needle". */
function chain(prefix: string, count: number, parent: string | null = null): Rec[] {
  const lines: Rec[] = [];
  for (let i = 0; i < count; i++) {
    const id = `${prefix}${i}`;
    const text = `needle number ${prefix}${i}`;
    lines.push(i % 2 === 0 ? user(id, parent, text) : assistant(id, parent, text));
    parent = id;
  }
  return lines;
}

/** What a hit says of its entry, to compare with the lines written. */
const facts = (h: { entryId: string | null; line: number; role: string; time: number | null }) =>
  `${h.entryId}@${h.line}:${h.role}:${h.time}`;

/** The same facts from the lines of a file (line 1 is the header). */
function expected(lines: Rec[], keep: (e: Rec, line: number) => boolean = () => true): string[] {
  return lines
    .map((e, i) => ({ e, line: i + 1 }))
    .filter(({ e, line }) => e.type === 'message' && keep(e, line))
    .map(({ e, line }) => {
      const role = (e.message as Rec).role as string;
      return `${e.id as string}@${line}:${role}:${Date.parse(e.timestamp as string)}`;
    })
    .sort();
}

describe('block rows', () => {
  it('numbers blocks 1, 2, 3… and never gives a rowid again (a file indexed anew comes after)', async () => {
    const root = join(await tempDir('canopy-rows-root-'), projectDirName('/p'));
    const a = await writeSession(root, 'a.jsonl', [header('aaaa', '/p'), ...chain('a', BLOCK_ENTRIES * 2)]);
    const b = await writeSession(root, 'b.jsonl', [header('bbbb', '/p'), ...chain('b', BLOCK_ENTRIES * 2)]);
    const { db } = openSearchDatabase(join(await tempDir('canopy-rows-cache-'), 'index.sqlite'));
    try {
      const indexer = new SearchIndexer(db);
      await indexer.sync(a);
      await indexer.sync(b);
      const rowids = () => db.prepare<[], number>('SELECT rowid FROM blocks ORDER BY rowid').pluck().all();
      const first = rowids();
      expect(first).toEqual(first.map((_, i) => i + 1));
      const ofA = db.prepare<[], number>('SELECT rowid FROM blocks WHERE file = 1 ORDER BY rowid').pluck().all();
      // b holds the newest rowids: rewritten shorter, its blocks go and come back above every rowid given.
      const text = await readFile(b, 'utf8');
      await writeFile(b, text.slice(0, text.lastIndexOf('\n', text.length - 2) + 1));
      expect(await indexer.sync(b)).toMatchObject({ kind: 'full' });
      const again = rowids();
      const max = first[first.length - 1]!;
      expect(again.filter((r) => r <= max)).toEqual(ofA);
      expect(again.filter((r) => r > max).length).toBe(first.length - ofA.length);
    } finally {
      db.close();
    }
  });

  it('answers filters, hits and branch:active from packed entries through appends, a fork, truncation and a rewrite', async () => {
    const root = await tempDir('canopy-rows-root-');
    const cache = await tempDir('canopy-rows-cache-');
    const lines = [header('cccc', '/p'), ...chain('c', BLOCK_ENTRIES + 60)];
    const file = await writeSession(join(root, projectDirName('/p')), 'c.jsonl', lines);
    const service = new SearchService({ roots: [root], env: { CANOPY_CACHE_DIR: cache } });
    const all = async (q: string) => (await service.query(q, { limit: 5000 })).hits.map(facts).sort();
    await service.update([file]);
    expect(await all('needle')).toEqual(expected(lines));
    expect(await all('role:user')).toEqual(expected(lines, (e) => (e.message as Rec).role === 'user'));
    const mid = lines[100]!.timestamp as string;
    expect(await all(`role:assistant after:${mid}`)).toEqual(
      expected(lines, (e) => (e.message as Rec).role === 'assistant' && (e.timestamp as string) >= mid),
    );
    // One chain across both blocks: every entry is on the active branch.
    expect(await all('needle branch:active')).toEqual(expected(lines));

    // An append that forks from an early entry: the branch is now that entry's path and the fork.
    const size = (await readFile(file)).length;
    const fork = chain('f', 3, 'c10');
    await appendFile(file, jsonl(fork));
    await service.syncFile(file);
    const forked = [...lines, ...fork];
    const onBranch = new Set([...Array.from({ length: 11 }, (_, i) => `c${i}`), 'f0', 'f1', 'f2']);
    expect(await all('needle')).toEqual(expected(forked));
    expect(await all('needle branch:active')).toEqual(expected(forked, (e) => onBranch.has(e.id as string)));

    // Another process shares the index: it follows the same file and reads the same rows.
    const other = new SearchService({ roots: [root], env: { CANOPY_CACHE_DIR: cache } });
    await other.update([file]);
    expect((await other.query('role:user', { limit: 5000 })).hits.map(facts).sort()).toEqual(
      expected(forked, (e) => (e.message as Rec).role === 'user'),
    );
    other.close();

    // Truncated back: the fork's rows go, the chain is whole again.
    await truncate(file, size);
    expect(await service.syncFile(file)).toMatchObject({ kind: 'full' });
    expect(await all('needle branch:active')).toEqual(expected(lines));
    expect(await all('role:user')).toEqual(expected(lines, (e) => (e.message as Rec).role === 'user'));
    service.close();
  });
});
