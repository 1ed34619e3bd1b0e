/**
 * Paths handed to the app are resolved (symlinks included) and refused unless they lie inside one
 * of the configured session roots, so `../` tricks and links pointing elsewhere cannot escape.
 */
import { sep } from 'node:path';
import { CanopyError } from '../shared/errors';
import { errnoCode, realPath } from '../storage/stat';

function isInside(root: string, path: string): boolean {
  if (path === root) return true;
  return path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * The real path of `path` if it is inside a root. Throws CanopyError `outside_roots` when it is
 * not (or when no root exists), `not_found` when the path does not exist.
 */
export async function resolveInsideRoots(roots: readonly string[], path: string): Promise<string> {
  let real: string;
  try {
    real = await realPath(path);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT' || errnoCode(err) === 'ENOTDIR') throw new CanopyError('not_found', `no such file: ${path}`);
    throw new CanopyError('io', `cannot resolve ${path}: ${(err as Error).message}`);
  }
  for (const root of roots) {
    const realRoot = await realPath(root).catch(() => null);
    if (realRoot !== null && isInside(realRoot, real)) return real;
  }
  throw new CanopyError('outside_roots', `${path} is outside the session roots`);
}
