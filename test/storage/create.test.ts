import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CreateFileError, createNewFile } from '../../electron/storage/create';
import { tempDir } from './tmp';

describe('createNewFile', () => {
  it('writes the exact content and leaves no temp file behind', async () => {
    const dir = await tempDir();
    const content = '{"type":"session"}\n{"id":"a"}\n';
    const path = await createNewFile(dir, 'new.jsonl', content);
    expect(path).toBe(join(dir, 'new.jsonl'));
    expect(await readFile(path, 'utf8')).toBe(content);
    expect(await readdir(dir)).toEqual(['new.jsonl']);
  });

  it('accepts bytes', async () => {
    const dir = await tempDir();
    const path = await createNewFile(dir, 'b.bin', new Uint8Array([0, 1, 2, 255]));
    expect([...(await readFile(path))]).toEqual([0, 1, 2, 255]);
  });

  it('writes pieces of text as they come, across batches, in order (a file larger than one string)', async () => {
    const dir = await tempDir();
    const pieces = Array.from({ length: 9 }, (_, i) => `${String(i)}${'é✓'.repeat(700_000)}\n`);
    let pulled = 0;
    const lines = (function* () {
      for (const p of pieces) {
        pulled++;
        yield p;
      }
    })();
    const path = await createNewFile(dir, 'pieces.jsonl', lines);
    expect(pulled).toBe(pieces.length);
    expect(await readFile(path, 'utf8')).toBe(pieces.join(''));
    expect(await readdir(dir)).toEqual(['pieces.jsonl']);
  });

  it('refuses an existing name and leaves the original bytes and mtime untouched', async () => {
    const dir = await tempDir();
    const path = join(dir, 'taken.jsonl');
    await writeFile(path, 'ORIGINAL\n');
    const before = await stat(path);
    const err = await createNewFile(dir, 'taken.jsonl', 'NEW\n').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CreateFileError);
    expect((err as CreateFileError).code).toBe('exists');
    expect(await readFile(path, 'utf8')).toBe('ORIGINAL\n');
    expect((await stat(path)).mtimeMs).toBe(before.mtimeMs);
    expect(await readdir(dir)).toEqual(['taken.jsonl']);
  });

  it("lets exactly one of many racing creators win; the winner's bytes are whole", async () => {
    const dir = await tempDir();
    const contents = Array.from({ length: 12 }, (_, i) => `writer ${i}\n`.repeat(1000));
    const results = await Promise.allSettled(contents.map((c) => createNewFile(dir, 'race.jsonl', c)));
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const r of results) {
      if (r.status === 'rejected') expect((r.reason as CreateFileError).code).toBe('exists');
    }
    expect(contents).toContain(await readFile(join(dir, 'race.jsonl'), 'utf8'));
    expect(await readdir(dir)).toEqual(['race.jsonl']);
  });

  it('refuses names that are not a plain file name', async () => {
    const dir = await tempDir();
    for (const name of ['', '.', '..', '../x.jsonl', 'a/b.jsonl']) {
      await expect(createNewFile(dir, name, 'x')).rejects.toMatchObject({ code: 'invalid_name' });
    }
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses a dangling symlink name too (never writes through it)', async () => {
    const dir = await tempDir();
    const { symlink } = await import('node:fs/promises');
    await symlink(join(dir, 'target-does-not-exist'), join(dir, 'link.jsonl'));
    await expect(createNewFile(dir, 'link.jsonl', 'x')).rejects.toMatchObject({ code: 'exists' });
    expect((await readdir(dir)).sort()).toEqual(['link.jsonl']);
  });

  it('reports a missing directory as an io error', async () => {
    const dir = await tempDir();
    await expect(createNewFile(join(dir, 'missing'), 'x.jsonl', 'x')).rejects.toMatchObject({ code: 'io' });
  });
});
