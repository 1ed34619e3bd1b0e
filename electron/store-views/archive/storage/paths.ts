/**
 * The archive's other file-system steps: what a path is now, folders made and removed, a small file
 * written durably, and a source removed while a handle on it keeps whatever was written to it late.
 */
import { access, constants, lstat, mkdir, open, readFile, readlink, rename, rm, stat, unlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';

/** An open file (a source's handle kept across its unlink). */
export type { FileHandle };
import { join } from 'node:path';
import { errnoCode } from '../../../storage/stat';
import { crashPoint } from '../crash-points';
import { fsyncDir, lstatOrNull } from './file-ops';

export interface EntryFacts {
  kind: 'file' | 'symlink' | 'other';
  size: number;
  mtimeMs: number;
  /** A symbolic link's target text. */
  target?: string;
}

/** What is at `path` (not following a link), or null when nothing is. */
export async function entryFacts(path: string): Promise<EntryFacts | null> {
  let st;
  try {
    st = await lstat(path);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT' || errnoCode(err) === 'ENOTDIR') return null;
    throw err;
  }
  if (st.isSymbolicLink()) return { kind: 'symlink', size: 0, mtimeMs: st.mtimeMs, target: await readlink(path) };
  return { kind: st.isFile() ? 'file' : 'other', size: st.size, mtimeMs: st.mtimeMs };
}

/** Creates the folder and its parents; the errno code when it cannot be a writable folder. */
export async function writableDir(dir: string): Promise<string | null> {
  try {
    await mkdir(dir, { recursive: true });
    if (!(await stat(dir)).isDirectory()) return 'ENOTDIR';
    await access(dir, constants.W_OK);
    return null;
  } catch (err) {
    return errnoCode(err) ?? (err as Error).message;
  }
}

export async function makeDirs(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
}

/** Creates a new folder (its parent is fsynced before the run relies on it). */
export async function makeNewDir(dir: string): Promise<void> {
  try {
    await mkdir(dir);
  } catch (err) {
    if (errnoCode(err) !== 'EEXIST') throw err;
  }
}

/** Removes one of Canopy's own folders and all it holds. */
export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

export async function readText(path: string): Promise<string> {
  return readFile(path, 'utf8');
}

/** Replaces `<dir>/<name>` whole and durably (temp file, fsync, rename, fsync of the folder). */
export async function writeDurably(dir: string, name: string, text: string): Promise<void> {
  const tmp = join(dir, `.${name}.tmp`);
  const h = await open(tmp, 'w', 0o600);
  try {
    await h.writeFile(text);
    await h.sync();
  } finally {
    await h.close();
  }
  await rename(tmp, join(dir, name));
  await fsyncDir(dir);
}

/**
 * Removes `path` once it is still as planned (its folder is fsynced by the caller, once); returns a handle on it when it was written between
 * the check and the unlink (the handle keeps those late bytes), or why it cannot go.
 */
export async function removeAsPlanned(file: {
  from: string;
  bytes: number;
  mtimeMs: number;
  symlink?: string;
}): Promise<{ reason: string; handle?: FileHandle } | null> {
  if (file.symlink !== undefined) {
    const target = await readlink(file.from).catch(() => null);
    if (target === null) return null;
    if (target !== file.symlink) return { reason: `${file.from} was replaced during the move` };
    await unlink(file.from);
    return null;
  }
  const st = await lstatOrNull(file.from);
  if (!st) return null; // removed before the crash that cut the run
  if (st.size !== file.bytes || st.mtimeMs !== file.mtimeMs)
    return { reason: `${file.from} was written during the archive` };
  const h = await open(file.from, 'r');
  crashPoint('unlink');
  await unlink(file.from);
  const after = await h.stat();
  if (after.size !== file.bytes || after.mtimeMs !== file.mtimeMs)
    return { reason: `${file.from} was written during the archive`, handle: h };
  await h.close();
  return null;
}

/** True when the open handle is the file at `path`. */
export async function handleIs(h: FileHandle, path: string): Promise<boolean> {
  try {
    const [a, b] = await Promise.all([h.stat(), lstat(path)]);
    return a.dev === b.dev && a.ino === b.ino;
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return false;
    throw err;
  }
}
