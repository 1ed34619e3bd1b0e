/**
 * The freedesktop trash (Linux) as Canopy reads it: `<trash>/info/NAME.trashinfo` says where
 * `<trash>/files/NAME` was. Canopy finds where a file it trashed went, and puts it back (never
 * over a file that is there now).
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { moveFileNoClobber } from './move-file';
import { statPath } from './stat';

type Env = Record<string, string | undefined>;

/** The home trash of the freedesktop spec: `$XDG_DATA_HOME/Trash`, else ~/.local/share/Trash. */
export function homeTrashDir(env: Env = process.env, home = homedir()): string {
  const xdg = env.XDG_DATA_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, '.local', 'share'), 'Trash');
}

/** A freedesktop `.trashinfo` file's original path (decoded) and deletion date; null when it is not one. */
export function parseTrashInfo(text: string): { path: string; deletedAt: string } | null {
  const lines = text.split(/\r?\n/);
  if (lines[0]?.trim() !== '[Trash Info]') return null;
  let path: string | null = null;
  let deletedAt = '';
  for (const line of lines.slice(1)) {
    const eq = line.indexOf('=');
    if (eq < 0) continue;
    const key = line.slice(0, eq).trim();
    const value = line.slice(eq + 1).trim();
    if (key === 'Path') {
      try {
        path = decodeURIComponent(value);
      } catch {
        return null;
      }
    } else if (key === 'DeletionDate') deletedAt = value;
  }
  return path === null ? null : { path, deletedAt };
}

/**
 * Where the trash at `trashDir` put `path`: the newest `.trashinfo` naming it whose file is
 * there; null when none is found (not Linux, or a trash on another device).
 */
export async function findTrashed(path: string, trashDir: string): Promise<string | null> {
  const infoDir = join(trashDir, 'info');
  const names = await readdir(infoDir).catch(() => [] as string[]);
  let best: { file: string; deletedAt: string } | null = null;
  for (const name of names) {
    if (!name.endsWith('.trashinfo')) continue;
    const info = parseTrashInfo(await readFile(join(infoDir, name), 'utf8').catch(() => ''));
    if (!info || info.path !== path) continue;
    const file = join(trashDir, 'files', name.slice(0, -'.trashinfo'.length));
    if (!(await statPath(file).catch(() => null))) continue;
    if (!best || info.deletedAt >= best.deletedAt) best = { file, deletedAt: info.deletedAt };
  }
  return best?.file ?? null;
}

/** Puts a trashed file back where it was (its folder made again if gone) and drops its info file. */
export async function restoreTrashed(trashedAs: string, path: string): Promise<void> {
  await moveFileNoClobber(trashedAs, path);
  await rm(join(dirname(dirname(trashedAs)), 'info', `${basename(trashedAs)}.trashinfo`), { force: true });
}
