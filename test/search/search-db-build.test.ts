/**
 * An index being built from empty (schema version 0 until the build ends) is another process's
 * work, not damage: it is opened by nobody else until then, and only a build whose process is gone
 * and holds no lock is rebuilt.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { beginBulkLoad, endBulkLoad, isBusy, openSearchDatabase } from '../../electron/search/storage/search-db';
import { tempDir } from '../storage/tmp';

/** A pid no process has (Linux's pid_max is at most 2^22). */
const GONE_PID = 4_194_304 + 17;

describe('the search index during a first build', () => {
  it('is busy while built (the write lock, then the live builder), rebuilt once the builder is gone', async () => {
    const file = join(await tempDir('canopy-build-'), 'search-index.sqlite');
    const first = openSearchDatabase(file);
    expect(first.fresh).toBe(true);
    beginBulkLoad(first.db, file);
    first.db.exec('BEGIN');
    first.db.prepare("INSERT INTO files (path) VALUES ('/x.jsonl')").run();
    // Another opener meets the write lock: busy, and the file is left alone.
    const during = (() => {
      try {
        return openSearchDatabase(file);
      } catch (err) {
        return err;
      }
    })();
    expect(isBusy(during)).toBe(true);
    first.db.exec('COMMIT');
    // Between two of the build's commits no lock is held: its marker says a live process builds it.
    writeFileSync(`${file}.building`, String(process.ppid));
    expect(() => openSearchDatabase(file)).toThrow(/another Canopy process is building it/);
    // The builder is gone (a crash): the half-built index is rebuilt.
    writeFileSync(`${file}.building`, String(GONE_PID));
    const after = openSearchDatabase(file);
    expect(after.rebuilt).toMatch(/schema version 0/);
    expect(after.db.prepare('SELECT count(*) AS n FROM files').get()).toEqual({ n: 0 });
    after.db.close();
    first.db.close();
  });

  it('a finished build removes its marker and opens as usual', async () => {
    const file = join(await tempDir('canopy-build-'), 'search-index.sqlite');
    const first = openSearchDatabase(file);
    beginBulkLoad(first.db, file);
    endBulkLoad(first.db, file);
    first.db.close();
    const again = openSearchDatabase(file);
    expect(again).toMatchObject({ fresh: false, rebuilt: null });
    again.db.close();
  });
});
