/**
 * Opening a file to read it, only when it is a regular file. A path listed as a session can be
 * replaced by a FIFO or a device between listing and opening: a plain open(2) of a FIFO blocks
 * until a writer comes (the whole event loop with it), and /dev/zero never ends. So every read
 * opens with O_NONBLOCK (no effect on a regular file) and fstat's the descriptor before reading.
 */
import { closeSync, constants, fstatSync, openSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { CanopyError } from '../shared/errors';

/** O_NONBLOCK does not exist on Windows (no FIFOs there to block on). */
export const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** What the path names instead of a regular file, for the message. */
export function kindOf(s: Stats): string {
  if (s.isDirectory()) return 'a directory';
  if (s.isFIFO()) return 'a FIFO';
  if (s.isCharacterDevice()) return 'a character device';
  if (s.isBlockDevice()) return 'a block device';
  if (s.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** The error for a path that is not a regular file (an issue of that path, never a hang). */
export function notRegularError(path: string, s: Stats): CanopyError {
  return new CanopyError('invalid_session', `${path} is ${kindOf(s)}, not a regular file`);
}

/** A descriptor of the regular file at `path`, and its stat. Throws the Node error, or CanopyError when not regular. */
export function openRegularSync(path: string): { fd: number; stats: Stats } {
  const fd = openSync(path, READ_FLAGS);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw notRegularError(path, stats);
    return { fd, stats };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/** openRegularSync with a FileHandle. */
export async function openRegular(path: string): Promise<{ handle: FileHandle; stats: Stats }> {
  const handle = await open(path, READ_FLAGS);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw notRegularError(path, stats);
    return { handle, stats };
  } catch (err) {
    await handle.close();
    throw err;
  }
}
