/**
 * Moving whole session files (archive and restore): never over an existing file, never a partial
 * file at the target. Same filesystem: link(2) (fails on an existing name) then unlink the source.
 * Across filesystems: an exclusive copy, fsynced, checked by size, then the source is removed.
 */
import { constants as fsConstants } from 'node:fs';
import { copyFile, link, mkdir, open, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errnoCode } from './stat';

export class MoveError extends Error {
  constructor(
    readonly code: 'exists' | 'io',
    message: string,
  ) {
    super(message);
    this.name = 'MoveError';
  }
}

async function fsyncPath(path: string): Promise<void> {
  const h = await open(path, 'r');
  try {
    await h.sync();
  } finally {
    await h.close();
  }
}

/** Moves `from` to `to` (its folder is created); throws MoveError('exists') when `to` exists. */
export async function moveFileNoClobber(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  try {
    await link(from, to);
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'EEXIST') throw new MoveError('exists', `refusing to overwrite ${to}`);
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP') throw err;
    try {
      await copyFile(from, to, fsConstants.COPYFILE_EXCL);
    } catch (copyErr) {
      if (errnoCode(copyErr) === 'EEXIST') throw new MoveError('exists', `refusing to overwrite ${to}`);
      throw copyErr;
    }
    await fsyncPath(to);
    const [a, b] = await Promise.all([stat(from), stat(to)]);
    if (a.size !== b.size) {
      await unlink(to).catch(() => undefined);
      throw new MoveError('io', `copy of ${from} to ${to} is incomplete`);
    }
  }
  await unlink(from);
}

/** Creates a folder and its parents. */
export async function makeDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
}
