import { renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReaderPool } from '../../electron/search/reader-pool';
import { tempDir } from '../repo/helpers';

describe('ReaderPool', () => {
  it('reads a file replaced since through a new handle, keyed by its new inode', async () => {
    const dir = await tempDir('canopy-reader-pool-');
    const file = join(dir, 's.jsonl');
    writeFileSync(file, 'old contents\n');
    const pool = new ReaderPool();
    try {
      const first = statSync(file).ino;
      expect(pool.get(file, first).readBytes(0, 3).toString()).toBe('old');
      // The same file again: the same reader (its descriptor stays open across queries).
      expect(pool.get(file, first)).toBe(pool.get(file, first));
      writeFileSync(join(dir, 'next'), 'new contents\n');
      renameSync(join(dir, 'next'), file);
      const second = statSync(file).ino;
      expect(second).not.toBe(first);
      expect(pool.get(file, second).readBytes(0, 3).toString()).toBe('new');
      // The old inode's reader still holds its open handle: it reads the old bytes, never mixes them in.
      expect(pool.get(file, first).readBytes(0, 3).toString()).toBe('old');
    } finally {
      pool.close();
    }
    expect(pool.size).toBe(0);
  });

  it('holds a bounded number of readers, dropping the least recently used', async () => {
    const dir = await tempDir('canopy-reader-pool-');
    const pool = new ReaderPool();
    try {
      const paths = Array.from({ length: 600 }, (_, i) => join(dir, `f${i}`));
      for (const p of paths) writeFileSync(p, 'x');
      const kept = pool.get(paths[0]!, statSync(paths[0]!).ino);
      for (const p of paths.slice(1)) {
        pool.get(p, statSync(p).ino).readBytes(0, 1);
        pool.get(paths[0]!, statSync(paths[0]!).ino); // used throughout: never the one dropped
      }
      expect(pool.size).toBe(512);
      expect(pool.get(paths[0]!, statSync(paths[0]!).ino)).toBe(kept);
    } finally {
      pool.close();
    }
  });
});
