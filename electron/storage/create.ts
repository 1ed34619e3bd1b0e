/**
 * The only way Canopy writes: a brand-new file, never over an existing path. The content goes to a
 * temp file in the same directory, is fsynced, and is then hard-linked to its final name: link(2)
 * fails with EEXIST instead of replacing, so a racing writer can never be clobbered, and readers
 * see either no file or the whole file.
 */
import { randomBytes } from 'node:crypto';
import { copyFile, constants as fsConstants, link, lstat, open, unlink, type FileHandle } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { errnoCode } from './stat';

export type CreateErrorCode = 'exists' | 'invalid_name' | 'io';

export class CreateFileError extends Error {
  constructor(
    readonly code: CreateErrorCode,
    message: string,
    readonly path: string,
  ) {
    super(message);
    this.name = 'CreateFileError';
  }
}

// Filesystems without hard links (some network/FUSE mounts) report one of these.
const NO_LINK_SUPPORT = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

async function syncDirectory(dir: string): Promise<void> {
  // Makes the new directory entry durable; not supported everywhere (e.g. Windows), hence best effort.
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    /* best effort */
  }
}

/** Pieces of an iterable content are written in batches of about this many UTF-16 units. */
const BATCH_CHARS = 4 * 1024 * 1024;

/** What a new file is made of; an async iterable of bytes streams a file of any size (slim copies). */
export type NewFileContent = string | Uint8Array | Iterable<string> | AsyncIterable<Uint8Array>;

async function writeContent(handle: FileHandle, content: NewFileContent): Promise<void> {
  if (typeof content === 'string' || content instanceof Uint8Array) return handle.writeFile(content);
  if (Symbol.asyncIterator in content) {
    for await (const piece of content) await handle.writeFile(piece);
    return;
  }
  let batch: string[] = [];
  let chars = 0;
  for (const piece of content) {
    batch.push(piece);
    chars += piece.length;
    if (chars >= BATCH_CHARS) {
      await handle.writeFile(batch.join(''));
      batch = [];
      chars = 0;
    }
  }
  if (chars > 0) await handle.writeFile(batch.join(''));
}

/**
 * Creates `dir/name` with `content` (pieces of text are written as they come: a file larger than
 * one string can be); returns its path. Throws CreateFileError, never overwrites.
 */
export async function createNewFile(dir: string, name: string, content: NewFileContent): Promise<string> {
  const finalPath = join(dir, name);
  if (name === '' || name === '.' || name === '..' || basename(name) !== name || name.includes('\\')) {
    throw new CreateFileError('invalid_name', `invalid file name: ${JSON.stringify(name)}`, finalPath);
  }
  const exists = await lstat(finalPath).then(
    () => true,
    () => false,
  );
  if (exists) throw new CreateFileError('exists', `refusing to overwrite existing file ${finalPath}`, finalPath);

  const tempPath = join(dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
  let handle;
  try {
    handle = await open(tempPath, 'wx', 0o644);
  } catch (err) {
    throw new CreateFileError('io', `cannot create ${tempPath}: ${(err as Error).message}`, finalPath);
  }
  try {
    try {
      await writeContent(handle, content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await link(tempPath, finalPath);
    } catch (err) {
      const code = errnoCode(err);
      if (code === 'EEXIST') {
        throw new CreateFileError('exists', `refusing to overwrite existing file ${finalPath}`, finalPath);
      }
      if (!code || !NO_LINK_SUPPORT.has(code)) throw err;
      // No hard links here: an exclusive copy still never overwrites, it is only not atomic.
      await copyFile(tempPath, finalPath, fsConstants.COPYFILE_EXCL).catch((copyErr: unknown) => {
        if (errnoCode(copyErr) === 'EEXIST') {
          throw new CreateFileError('exists', `refusing to overwrite existing file ${finalPath}`, finalPath);
        }
        throw copyErr;
      });
    }
    await syncDirectory(dir);
    return finalPath;
  } catch (err) {
    if (err instanceof CreateFileError) throw err;
    throw new CreateFileError('io', `cannot create ${finalPath}: ${(err as Error).message}`, finalPath);
  } finally {
    await unlink(tempPath).catch(() => undefined);
  }
}
