/**
 * The files list a query keeps is changed by one file's row after a sync (search/query.ts
 * withFileRow), and equals what reading the whole table gives, order included: a file appended
 * to, added, or gone.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexedFiles, withFileRow } from '../../electron/search/query';
import { SearchService } from '../../electron/search/search-service';
import { openSearchDatabase } from '../../electron/search/storage/search-db';
import { header, jsonl, projectDirName, tempDir, user, writeSession } from '../repo/helpers';

/** A root of `n` one-message sessions (the message says `text(i)`) and an empty cache folder. */
async function store(n: number, text: (i: number) => string) {
  const root = await tempDir('canopy-files-row-');
  const cache = await tempDir('canopy-files-row-cache-');
  const dir = join(root, projectDirName('/p'));
  const paths: string[] = [];
  for (let i = 0; i < n; i++)
    paths.push(await writeSession(dir, `s${i}.jsonl`, [header(`s${i}`, '/p'), user(`e${i}`, null, text(i))]));
  return { root, cache, paths };
}

describe('the kept files list', () => {
  it('follows one file’s change as a fresh read of the table does', async () => {
    const { root, cache, paths } = await store(3, (i) => `words ${i}`);
    const service = new SearchService({ roots: [root], env: { CANOPY_CACHE_DIR: cache } });
    await service.update(paths);
    service.close();
    const db = openSearchDatabase(service.indexPath).db;
    try {
      const before = indexedFiles(db);
      expect(before.map((f) => f.path).sort()).toEqual([...paths].sort());
      // Appended to: its row changes in place.
      const middle = before[1]!.path;
      db.prepare('UPDATE files SET indexed_to = indexed_to + 10, name = ? WHERE path = ?').run('renamed', middle);
      const changed = withFileRow(db, before, middle);
      expect(changed).toEqual(indexedFiles(db));
      expect(changed[1]!.name).toBe('renamed');
      // Gone.
      db.prepare('DELETE FROM files WHERE path = ?').run(before[0]!.path);
      const gone = withFileRow(db, changed, before[0]!.path);
      expect(gone).toEqual(indexedFiles(db));
      // Added (a new row, the newest id).
      appendFileSync(paths[0]!, jsonl([user('late', 'e0', 'more')]));
      const again = new SearchService({ roots: [root], env: { CANOPY_CACHE_DIR: cache } });
      await again.syncFile(paths[0]!);
      again.close();
      const added = withFileRow(db, gone, paths[0]!);
      expect(added).toEqual(indexedFiles(db));
      expect(added).toHaveLength(3);
    } finally {
      db.close();
    }
  });
});

describe('a query during a first build', () => {
  it('leaves no stale files list behind: every phrase is found once the build ends', async () => {
    const { root, cache, paths } = await store(40, (i) => `planted phrase number ${i} among filler words`);
    const service = new SearchService({ roots: [root], env: { CANOPY_CACHE_DIR: cache } });
    try {
      // As the app asks while its first pass runs (and as the search bench does).
      let building = true;
      const pass = service.update(paths).finally(() => (building = false));
      while (building) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        await service.query('"planted phrase"', { limit: 1, paths: new Set(paths) });
      }
      await pass;
      const all = await service.query('"planted phrase"', { limit: 500 });
      expect(all.hits).toHaveLength(40);
    } finally {
      service.close();
    }
  });
});
