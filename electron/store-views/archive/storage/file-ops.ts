/**
 * Placing one file at a new path for the archive, never over an existing name and never as a partial
 * file under its final name: a hard link on one file system (the same inode: bytes and mtime kept),
 * else a copy to a hidden `.part` beside the target, fsynced, hashed while read and checked by
 * hashing the copy, its mtime set, then linked to the final name. A symbolic link is placed as a link
 * with the same target text. The caller makes the new names durable (fsyncDirs, once per folder)
 * before anything relies on them.
 */
import { createHash } from 'node:crypto';
import { link, lstat, lutimes, open, readlink, symlink, unlink, utimes, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { errnoCode } from '../../../storage/stat';
import { crashPoint } from '../crash-points';

const CHUNK = 4 * 1024 * 1024;

export class PlaceError extends Error {
  constructor(
    readonly code: 'exists' | 'io',
    message: string,
  ) {
    super(message);
    this.name = 'PlaceError';
  }
}

export async function fsyncDir(dir: string): Promise<void> {
  const h = await open(dir, 'r');
  try {
    await h.sync();
  } catch (err) {
    // Some file systems cannot fsync a folder; the entries are then as durable as they get.
    if (errnoCode(err) !== 'EINVAL' && errnoCode(err) !== 'EISDIR') throw err;
  } finally {
    await h.close();
  }
}

/** fsyncs each folder once (the new or removed names in it become durable together). */
export async function fsyncDirs(dirs: Iterable<string>): Promise<void> {
  for (const dir of new Set(dirs)) await fsyncDir(dir);
}

/** SHA-256 of a file's bytes (a symbolic link: of its target text). */
export async function hashPath(path: string): Promise<string> {
  const st = await lstat(path);
  if (st.isSymbolicLink())
    return createHash('sha256')
      .update(await readlink(path))
      .digest('hex');
  const h = await open(path, 'r');
  try {
    return await hashHandle(h);
  } finally {
    await h.close();
  }
}

async function hashHandle(h: FileHandle, copyTo?: FileHandle): Promise<string> {
  const hash = createHash('sha256');
  const buf = Buffer.allocUnsafe(CHUNK);
  for (let at = 0; ;) {
    const { bytesRead } = await h.read(buf, 0, CHUNK, at);
    if (bytesRead === 0) break;
    const part = buf.subarray(0, bytesRead);
    hash.update(part);
    if (copyTo) {
      await copyTo.write(part, 0, bytesRead, at);
      if (at === 0) crashPoint('copy-partial');
    }
    at += bytesRead;
  }
  return hash.digest('hex');
}

/** True when both paths name the same inode. */
export async function sameInode(a: string, b: string): Promise<boolean> {
  try {
    const [x, y] = await Promise.all([lstat(a), lstat(b)]);
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

/** lstat, or null when the path does not exist. */
export async function lstatOrNull(path: string): Promise<{ size: number; mtimeMs: number } | null> {
  try {
    return await lstat(path);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return null;
    throw err;
  }
}

export const partName = (to: string): string => join(dirname(to), `.${basename(to)}.canopy-part`);

/**
 * Places the bytes of `from` (or of an open handle on it) at `to`, which must not exist (a file
 * already there that is the same inode counts as placed: a resumed run). Returns the SHA-256.
 */
export async function placeFile(
  from: string,
  to: string,
  file: { mtimeMs: number; symlink?: string },
  source?: FileHandle,
): Promise<string> {
  if (file.symlink !== undefined) return placeSymlink(to, file.symlink, file.mtimeMs);
  if (!source) {
    try {
      await link(from, to);
      return await hashPath(to);
    } catch (err) {
      const code = errnoCode(err);
      if (code === 'EEXIST') {
        if (await sameInode(from, to)) return hashPath(to);
        throw new PlaceError('exists', `${to} already exists`);
      }
      if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP') throw err;
    }
  }
  if (await lstatOrNull(to)) throw new PlaceError('exists', `${to} already exists`);
  return copyThenLink(from, to, file.mtimeMs, source);
}

async function copyThenLink(from: string, to: string, mtimeMs: number, source?: FileHandle): Promise<string> {
  const part = partName(to);
  await unlink(part).catch(() => undefined);
  const src = source ?? (await open(from, 'r'));
  let sha: string;
  try {
    const out = await open(part, 'wx', 0o600);
    try {
      sha = await hashHandle(src, out);
      await out.sync();
    } finally {
      await out.close();
    }
  } finally {
    if (!source) await src.close();
  }
  // In seconds: a Date would cut the sub-millisecond part.
  await utimes(part, mtimeMs / 1000, mtimeMs / 1000);
  if ((await hashPath(part)) !== sha) {
    await unlink(part).catch(() => undefined);
    throw new PlaceError('io', `the copy of ${from} at ${to} does not read back as written`);
  }
  try {
    await link(part, to);
  } catch (err) {
    await unlink(part).catch(() => undefined);
    if (errnoCode(err) === 'EEXIST') throw new PlaceError('exists', `${to} already exists`);
    throw err;
  }
  await unlink(part);
  return sha;
}

async function placeSymlink(to: string, target: string, mtimeMs: number): Promise<string> {
  try {
    await symlink(target, to);
  } catch (err) {
    if (errnoCode(err) !== 'EEXIST') throw err;
    const there = await readlink(to).catch(() => null);
    if (there !== target) throw new PlaceError('exists', `${to} already exists`);
  }
  await lutimes(to, mtimeMs / 1000, mtimeMs / 1000);
  return createHash('sha256').update(target).digest('hex');
}

/** Removes a `.part` left beside a target by a cut copy. */
export async function removePart(to: string): Promise<void> {
  await unlink(partName(to)).catch(() => undefined);
}

/** Removes a placed copy and any `.part` left beside it. */
export async function removePlaced(to: string): Promise<void> {
  await removePart(to);
  try {
    await unlink(to);
  } catch (err) {
    if (errnoCode(err) !== 'ENOENT') throw err;
  }
}
