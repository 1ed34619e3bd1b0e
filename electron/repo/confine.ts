/**
 * Paths handed to the app are resolved (symlinks included) and refused unless they lie inside one
 * of the configured session roots, so `../` tricks and links pointing elsewhere cannot escape.
 */
import { sep } from 'node:path';
import { CanopyError } from '../shared/errors';
import { isMissing, realPathSync } from '../storage/stat';

function isInside(root: string, path: string): boolean {
  if (path === root) return true;
  return path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** The real paths of the roots that exist (computed once for a batch of checks). */
export function realRoots(roots: readonly string[]): string[] {
  const out: string[] = [];
  for (const root of roots) {
    try {
      out.push(realPathSync(root));
    } catch {
      // a missing root holds nothing
    }
  }
  return out;
}

/**
 * The real path of `path` if it is inside a root. Throws CanopyError `outside_roots` when it is
 * not (or when no root exists), `not_found` when the path does not exist. The realpath calls are
 * synchronous: every request resolves its session's path, and the sidebar asks for summaries of
 * thousands of sessions, where a thread-pool round trip per call is what costs.
 */
export async function resolveInsideRoots(roots: readonly string[], path: string): Promise<string> {
  return insideRealRoots(realRoots(roots), path);
}

/** A test for real paths: inside one of `real` (roots already resolved by realRoots). */
export function insideTest(real: readonly string[]): (realPath: string) => boolean {
  return (path) => real.some((root) => isInside(root, path));
}

/** resolveInsideRoots against roots already resolved by realRoots. */
export function insideRealRoots(real: readonly string[], path: string): string {
  let resolved: string;
  try {
    resolved = realPathSync(path);
  } catch (err) {
    if (isMissing(err)) throw new CanopyError('not_found', `no such file: ${path}`);
    throw new CanopyError('io', `cannot resolve ${path}: ${(err as Error).message}`);
  }
  if (insideTest(real)(resolved)) return resolved;
  throw new CanopyError('outside_roots', `${path} is outside the session roots`);
}
