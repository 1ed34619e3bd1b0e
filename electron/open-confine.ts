/**
 * What main accepts from outside the window besides the native dialog: paths in a second
 * instance's argv (any local process can start one), and the folder "Open Sessions Folder" shows.
 * Facts about paths are injected (the tests use fakes; main passes storage's stat).
 */
import { dirname, parse } from 'node:path';

export interface PathKind {
  isFile: boolean;
  isDirectory: boolean;
}

/** stat of a path (following links), or null when it is not there. */
export type KindOf = (path: string) => PathKind | null;

/**
 * The paths of an argv that may be opened as the dialog would let the user open them: an existing
 * regular `.jsonl` file, or a folder that is neither a file system root nor the home folder itself
 * (those would make every session file on the disk reachable). Everything else is dropped.
 */
export function confineOpenPaths(paths: readonly string[], kindOf: KindOf, home: string): string[] {
  return paths.filter((p) => {
    const k = kindOf(p);
    if (!k) return false;
    if (k.isFile) return p.endsWith('.jsonl');
    if (!k.isDirectory) return false;
    return p !== parse(p).root && p !== home;
  });
}

/**
 * The folder to show for "Open Sessions Folder": a root or opened folder as is; for an opened
 * `.jsonl` file its folder (the OS would otherwise open, or run, the file itself with whatever
 * program claims it). null when there is nothing to show.
 */
export function folderToShow(first: string | undefined, kindOf: KindOf): string | null {
  if (!first) return null;
  const k = kindOf(first);
  if (!k) return null;
  if (k.isDirectory) return first;
  return dirname(first);
}
