import { appendFile, rename, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tailFrom } from '../../electron/storage/tail';
import { tempDir } from './tmp';

describe('tailFrom', () => {
  it('returns complete lines and keeps a partial last line pending until its newline arrives', async () => {
    const dir = await tempDir();
    const path = join(dir, 's.jsonl');
    await writeFile(path, '{"h":1}\n');
    let t = await tailFrom(path, 0);
    expect(t.lines.map((l) => l.text)).toEqual(['{"h":1}']);
    expect(t).toMatchObject({ offset: 8, nextLine: 2, pendingBytes: 0 });

    // A line written in three pieces.
    await appendFile(path, '{"a":');
    t = await tailFrom(path, t.offset, { firstLine: t.nextLine, ino: t.ino, chunkSize: 2 });
    expect(t.lines).toEqual([]);
    expect(t).toMatchObject({ offset: 8, nextLine: 2, pendingBytes: 5 });
    expect(t.reset).toBeUndefined();

    await appendFile(path, '"é"');
    t = await tailFrom(path, t.offset, { firstLine: t.nextLine, ino: t.ino, chunkSize: 2 });
    expect(t.lines).toEqual([]);
    expect(t.pendingBytes).toBe(9);

    await appendFile(path, '}\n{"b":2}\n{"c"');
    t = await tailFrom(path, t.offset, { firstLine: t.nextLine, ino: t.ino, chunkSize: 2 });
    expect(t.lines.map((l) => [l.line, l.text])).toEqual([
      [2, '{"a":"é"}'],
      [3, '{"b":2}'],
    ]);
    expect(t.lines[0]!.offset).toBe(8);
    expect(t.offset).toBe(8 + Buffer.byteLength('{"a":"é"}\n{"b":2}\n'));
    expect(t.pendingBytes).toBe(4);

    await appendFile(path, ':3}\n');
    t = await tailFrom(path, t.offset, { firstLine: t.nextLine, ino: t.ino });
    expect(t.lines.map((l) => [l.line, l.text])).toEqual([[4, '{"c":3}']]);
    expect(t.pendingBytes).toBe(0);
  });

  it('returns nothing new when nothing was appended', async () => {
    const dir = await tempDir();
    const path = join(dir, 's.jsonl');
    await writeFile(path, 'a\nb\n');
    const t = await tailFrom(path, 4, { firstLine: 3 });
    expect(t).toMatchObject({ lines: [], offset: 4, nextLine: 3, size: 4 });
  });

  it('reports truncation', async () => {
    const dir = await tempDir();
    const path = join(dir, 's.jsonl');
    await writeFile(path, 'aaaa\nbbbb\n');
    await truncate(path, 5);
    const t = await tailFrom(path, 10, { firstLine: 3 });
    expect(t.reset).toBe('truncated');
    expect(t).toMatchObject({ lines: [], offset: 0, nextLine: 1 });
  });

  it('reports a file rewritten in place (the byte before the offset is no longer a newline)', async () => {
    const dir = await tempDir();
    const path = join(dir, 's.jsonl');
    await writeFile(path, 'aaaa\nbbbb\n');
    await writeFile(path, 'aaaaaaaaaaaaaaaaaaaa\n');
    expect((await tailFrom(path, 5)).reset).toBe('rewritten');
  });

  it('reports a replaced file (rotation) by inode, and a vanished one', async () => {
    const dir = await tempDir();
    const path = join(dir, 's.jsonl');
    await writeFile(path, 'a\n');
    const first = await tailFrom(path, 0);
    await writeFile(join(dir, 'other'), 'a\nb\nc\n');
    await rename(join(dir, 'other'), path);
    expect((await tailFrom(path, first.offset, { ino: first.ino })).reset).toBe('replaced');
    await rename(path, join(dir, 'gone'));
    expect((await tailFrom(path, 2)).reset).toBe('missing');
  });
});
