import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listSessionFiles } from '../../electron/storage/list-dir';
import { tempDir } from './tmp';

const isRoot = process.getuid?.() === 0;
if (isRoot) console.info('list-dir: the EACCES test is skipped: running as root, chmod 000 does not block root');

describe('listSessionFiles', () => {
  it('finds .jsonl files in project dirs and in the root, skipping tmp files and other names', async () => {
    const root = await tempDir();
    await mkdir(join(root, '--a--'));
    await mkdir(join(root, '--b--'));
    await writeFile(join(root, '--a--', '2.jsonl'), 'xx');
    await writeFile(join(root, '--a--', '1.jsonl'), 'x');
    await writeFile(join(root, '--a--', '1.jsonl.tmp'), 'x');
    await writeFile(join(root, '--a--', 'notes.txt'), 'x');
    await mkdir(join(root, '--a--', 'dir.jsonl'));
    await writeFile(join(root, '--b--', '3.jsonl'), 'xxx');
    await writeFile(join(root, 'flat.jsonl'), '');
    const { files, errors } = await listSessionFiles([root]);
    expect(errors).toEqual([]);
    expect(files.map((f) => [f.path.slice(root.length + 1), f.size, f.dir === root])).toEqual([
      ['--a--/1.jsonl', 1, false],
      ['--a--/2.jsonl', 2, false],
      ['--b--/3.jsonl', 3, false],
      ['flat.jsonl', 0, true],
    ]);
    expect(files.every((f) => f.root === root && f.mtimeMs > 0)).toBe(true);
  });

  it('follows symlinked project dirs and ignores dangling links; missing roots are fine', async () => {
    const root = await tempDir();
    const elsewhere = await tempDir();
    await writeFile(join(elsewhere, 'linked.jsonl'), 'L');
    await symlink(elsewhere, join(root, '--linked--'));
    await symlink(join(root, 'nowhere'), join(root, '--dangling--'));
    const { files, errors } = await listSessionFiles([join(root, 'missing-root'), root]);
    expect(errors).toEqual([]);
    expect(files.map((f) => f.path)).toEqual([join(root, '--linked--', 'linked.jsonl')]);
  });

  it('keeps roots in the given order', async () => {
    const r1 = await tempDir();
    const r2 = await tempDir();
    await mkdir(join(r1, 'p'));
    await mkdir(join(r2, 'p'));
    await writeFile(join(r1, 'p', 'z.jsonl'), '');
    await writeFile(join(r2, 'p', 'a.jsonl'), '');
    const { files } = await listSessionFiles([r1, r2]);
    expect(files.map((f) => f.root)).toEqual([r1, r2]);
  });

  it('reports a root that is not a directory as an error instead of listing nothing silently', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'file-root'), 'x');
    const { files, errors } = await listSessionFiles([join(dir, 'file-root')]);
    expect(files).toEqual([]);
    expect(errors).toEqual([expect.objectContaining({ path: join(dir, 'file-root'), code: 'ENOTDIR' })]);
  });

  it.skipIf(isRoot)('reports an unreadable project dir as an error and lists the rest', async () => {
    const root = await tempDir();
    await mkdir(join(root, 'ok'));
    await mkdir(join(root, 'locked'));
    await writeFile(join(root, 'ok', 'a.jsonl'), '');
    await chmod(join(root, 'locked'), 0o000);
    try {
      const { files, errors } = await listSessionFiles([root]);
      expect(files.map((f) => f.path)).toEqual([join(root, 'ok', 'a.jsonl')]);
      expect(errors).toEqual([expect.objectContaining({ path: join(root, 'locked'), code: 'EACCES' })]);
    } finally {
      await chmod(join(root, 'locked'), 0o755);
    }
  });
});
