/**
 * Session roots → project directories → `.jsonl` files, with size and mtime. Knows nothing of
 * pi's rules beyond the layout: directories are not decoded (the header's cwd names the project).
 */
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { errnoCode } from './stat';

export interface SessionFileInfo {
  path: string;
  /** The root it was found under. */
  root: string;
  /** The directory holding it (a project directory, or the root itself for flat layouts). */
  dir: string;
  size: number;
  mtimeMs: number;
}

export interface ListError {
  path: string;
  code: string;
  message: string;
}

export interface ListedFiles {
  files: SessionFileInfo[];
  errors: ListError[];
}

export function toListError(path: string, err: unknown): ListError {
  return { path, code: errnoCode(err) ?? 'io', message: err instanceof Error ? err.message : String(err) };
}

/** A directory's entries; a failure is recorded in `errors` (a missing root is not one) and reads as empty. */
export async function readDirEntries(dir: string, errors: ListError[], missingIsFine: boolean): Promise<Dirent[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.some((e) => e.name.includes('\uFFFD')) ? await exactNames(dir, entries, errors) : entries;
  } catch (err) {
    if (!(missingIsFine && errnoCode(err) === 'ENOENT')) errors.push(toListError(dir, err));
    return [];
  }
}

/** A name's bytes as text: printable ASCII as is, every other byte as \\xNN (never a lossy decode). */
export function escapeNameBytes(name: Buffer): string {
  let out = '';
  for (const byte of name)
    out +=
      byte >= 0x20 && byte < 0x7f && byte !== 0x5c
        ? String.fromCharCode(byte)
        : `\\x${byte.toString(16).padStart(2, '0')}`;
  return out;
}

/**
 * A name that is not UTF-8 reads back as U+FFFD and names no file (opening it says ENOENT): such
 * `.jsonl` files are reported with their bytes escaped, and left out; real U+FFFD names stay.
 */
async function exactNames(dir: string, entries: Dirent[], errors: ListError[]): Promise<Dirent[]> {
  const exact = new Set<string>();
  for (const raw of await readdir(dir, { encoding: 'buffer' })) {
    const name = raw.toString('utf8');
    if (Buffer.from(name, 'utf8').equals(raw)) exact.add(name);
    else if (name.endsWith('.jsonl'))
      errors.push({
        path: join(dir, escapeNameBytes(raw)),
        code: 'not_utf8',
        message: `the file name ${escapeNameBytes(raw)} in ${dir} is not UTF-8: Canopy cannot open it by name (rename it to read it)`,
      });
  }
  return entries.filter((e) => !e.name.includes('\uFFFD') || exact.has(e.name));
}

/** Plain directories, and symlinks that point at directories (followed, as pi ≥ 0.84 does). */
async function isDirectoryEntry(dir: string, entry: Dirent): Promise<boolean> {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return (await stat(join(dir, entry.name))).isDirectory();
  } catch {
    return false; // dangling link
  }
}

async function collectFiles(root: string, dir: string, entries: Dirent[], out: ListedFiles): Promise<void> {
  // `.jsonl.tmp` staging files do not end in `.jsonl`, so the suffix test skips them.
  const names = entries.filter((e) => e.name.endsWith('.jsonl') && (e.isFile() || e.isSymbolicLink()));
  const infos = await Promise.all(
    names.map(async (entry) => {
      const path = join(dir, entry.name);
      try {
        const s = await stat(path);
        if (!s.isFile()) return null;
        return { path, root, dir, size: s.size, mtimeMs: s.mtimeMs };
      } catch (err) {
        out.errors.push(toListError(path, err));
        return null;
      }
    }),
  );
  for (const info of infos) if (info) out.files.push(info);
}

/**
 * Every `.jsonl` file in each root's child directories, plus any lying directly in a root (a flat
 * custom session directory). A missing root is not an error. Order: roots as given, then by path.
 */
export async function listSessionFiles(roots: readonly string[]): Promise<ListedFiles> {
  const out: ListedFiles = { files: [], errors: [] };
  for (const root of roots) {
    const found: ListedFiles = { files: [], errors: out.errors };
    const entries = await readDirEntries(root, out.errors, true);
    await collectFiles(root, root, entries, found);
    const dirs: string[] = [];
    for (const entry of entries) {
      if (await isDirectoryEntry(root, entry)) dirs.push(join(root, entry.name));
    }
    await Promise.all(
      dirs.map(async (dir) => {
        await collectFiles(root, dir, await readDirEntries(dir, out.errors, false), found);
      }),
    );
    found.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    for (const file of found.files) out.files.push(file);
  }
  return out;
}
