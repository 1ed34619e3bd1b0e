/** File facts the layers above need without touching node:fs themselves. */
import { realpathSync, statSync, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';

export interface FileFacts {
  size: number;
  mtimeMs: number;
  ino: number;
  isFile: boolean;
  isDirectory: boolean;
}

/** stat(2), following symlinks. Rejects with the Node error (code ENOENT, EACCES, …). */
export async function statPath(path: string): Promise<FileFacts> {
  return factsOf(await stat(path));
}

/**
 * statPath, synchronously: for loops over thousands of small files, where one syscall costs less
 * than a thread-pool round trip. Throws the Node error.
 */
export function statPathSync(path: string): FileFacts {
  return factsOf(statSync(path));
}

/** statPathSync, or null when the path cannot be stat'ed (gone). */
export function statPathOrNull(path: string): FileFacts | null {
  try {
    return statPathSync(path);
  } catch {
    return null;
  }
}

/** True only when nothing is at `path` (ENOENT, ENOTDIR): a stat failing for another reason (EACCES…) is not "gone". */
export function isGoneSync(path: string): boolean {
  try {
    statPathSync(path);
    return false;
  } catch (err) {
    return isMissing(err);
  }
}

/** Whether a Node error says nothing is at the path: ENOENT, or ENOTDIR (a file where a folder was expected). */
export function isMissing(err: unknown): boolean {
  const code = errnoCode(err);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function factsOf(s: Stats): FileFacts {
  return { size: s.size, mtimeMs: s.mtimeMs, ino: s.ino, isFile: s.isFile(), isDirectory: s.isDirectory() };
}

/**
 * realpath(3): absolute, symlinks resolved; synchronous (see statPathSync), with the C library's
 * own call (Node's JS version lstats every path component). Throws when the path does not exist.
 */
export function realPathSync(path: string): string {
  return realpathSync.native(path);
}

/** The `code` of a Node system error, or undefined. */
export function errnoCode(err: unknown): string | undefined {
  if (typeof err === 'object' && err !== null && 'code' in err) {
    const code = (err as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}
