/**
 * The manifest an archived family's folder holds, and the checks a restore makes of it. PURE.
 * A manifest is only a file in a folder: anyone can edit it, so a restore trusts none of its paths.
 * Each file goes back only to a `.jsonl` path inside a session root the caller knows (never where a
 * forged manifest says, e.g. ~/.bashrc), under its own stored name in the folder.
 */
import { basename, isAbsolute, resolve, sep } from 'node:path';

export const MANIFEST = 'canopy-archive.json';

export interface ManifestFile {
  original: string;
  stored: string;
  bytes: number;
  sha256: string;
  /** Write time kept across file systems (version 2). */
  mtimeMs?: number;
  /** A symbolic link's target text (version 2); the folder holds no bytes for it. */
  symlink?: string;
}

export interface Manifest {
  version: 1 | 2;
  family: string;
  archivedAt: string;
  /** The session roots the family came from (version 2). */
  roots?: string[];
  files: ManifestFile[];
}

const inside = (path: string, root: string): boolean => path.startsWith(root.endsWith(sep) ? root : root + sep);

/**
 * The manifest as a restore may use it, or why not (one line). `knownRoots`: the roots the caller
 * browses; a file goes back only inside one of them (and inside one the manifest names, if any).
 */
export function checkManifest(value: unknown, knownRoots: readonly string[]): Manifest | string {
  const m = value as Partial<Manifest> | null;
  if (!m || typeof m !== 'object' || (m.version !== 1 && m.version !== 2) || !Array.isArray(m.files))
    return 'is not a manifest Canopy wrote';
  if (typeof m.family !== 'string') return 'names no family';
  const roots = knownRoots.map((r) => resolve(r));
  const named = Array.isArray(m.roots) ? m.roots.filter((r): r is string => typeof r === 'string') : null;
  for (const f of m.files as unknown[]) {
    const file = f as Partial<ManifestFile> | null;
    if (
      !file ||
      typeof file.original !== 'string' ||
      typeof file.stored !== 'string' ||
      typeof file.sha256 !== 'string' ||
      typeof file.bytes !== 'number' ||
      !(file.bytes >= 0)
    )
      return 'lists a file without its path, size or hash';
    const original = file.original;
    if (!isAbsolute(original) || resolve(original) !== original || !original.endsWith('.jsonl'))
      return `would restore to ${JSON.stringify(original)}, which is no session file path`;
    if (!roots.some((r) => inside(original, r)))
      return `would restore to ${original}, outside every session root (${roots.join(', ')})`;
    if (named && !named.some((r) => inside(original, resolve(r))))
      return `would restore to ${original}, outside the roots the family came from`;
    if (file.stored !== basename(file.stored) || file.stored === '' || file.stored.startsWith('.'))
      return `names a stored file ${JSON.stringify(file.stored)} outside its folder`;
    if (file.symlink !== undefined && typeof file.symlink !== 'string') return 'has a malformed symbolic link';
  }
  const originals = new Set((m.files as ManifestFile[]).map((f) => f.original));
  if (originals.size !== m.files.length) return 'lists one original path twice';
  return m as Manifest;
}
