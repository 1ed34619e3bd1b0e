/**
 * Listing at scale: the session files under the roots (the layout of list-dir.ts) with their size,
 * mtime and first line, for 10,000 files in a fraction of a second. Directory entries come from
 * readdir's file types (no stat per regular file); each file then costs one synchronous
 * open + fstat + read + close, in batches that yield to the event loop between them (a thread-pool
 * round trip per call is what makes 10,000 small async reads slow). Symlinks are stat'ed first, so a
 * link to a FIFO or a directory is never opened for reading.
 */
import { closeSync, fstatSync, openSync, readSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { readDirEntries, toListError, type ListError } from './list-dir';
import { abortError } from './line-scan';
import { LineTooLongError, type FirstLine } from './read';
import { READ_FLAGS } from './regular-file';
import { realPathSync } from './stat';

export interface ProbedFile {
  path: string;
  root: string;
  dir: string;
  size: number;
  mtimeMs: number;
  /** The first physical line; null for an empty file. */
  first: FirstLine | null;
  /** Reading the first line failed (e.g. LineTooLongError); the file itself was found. */
  readError?: unknown;
}

export interface ProbeOptions {
  signal?: AbortSignal;
  /** Files probed so far and the number found, after each batch. */
  onProgress?: (done: number, total: number) => void;
  /** Files per synchronous batch (default 256). */
  batch?: number;
  /** First lines longer than this are refused (default 16 MiB, as readFirstLine). */
  maxBytes?: number;
  /**
   * Confinement: a file reached through a symlink (itself or its directory) is opened only when
   * its real path passes this test; otherwise it is listed in `outside`, never read.
   */
  inside?: (realPath: string) => boolean;
}

export interface ProbeResult {
  files: ProbedFile[];
  errors: ListError[];
  /** Paths whose real path failed `inside` (not opened). */
  outside: string[];
}

interface Candidate {
  path: string;
  root: string;
  dir: string;
  /** A symlink, or in a symlinked directory: resolve (and stat) it before opening. */
  link: boolean;
}

function isDirectoryEntry(dir: string, entry: Dirent): boolean {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return statSync(join(dir, entry.name)).isDirectory();
  } catch {
    return false; // dangling link
  }
}

function candidates(root: string, dir: string, entries: Dirent[], out: Candidate[], linkedDir = false): void {
  // join() normalises the whole path again for every file; the directory part already is.
  const prefix = join(dir, 'x').slice(0, -1);
  // `.jsonl.tmp` staging files do not end in `.jsonl`, so the suffix test skips them.
  for (const e of entries) {
    if (!e.name.endsWith('.jsonl') || !(e.isFile() || e.isSymbolicLink())) continue;
    out.push({ path: prefix + e.name, root, dir, link: linkedDir || e.isSymbolicLink() });
  }
}

const CHUNK = 4096;
const NEWLINE = 0x0a;
const CR = 0x0d;
let scratch = Buffer.allocUnsafe(CHUNK);

/** First line of an open file, like readFirstLine (CR before the newline dropped). */
function firstLine(fd: number, path: string, maxBytes: number): FirstLine | null {
  let filled = 0;
  for (;;) {
    if (filled + CHUNK > scratch.length) {
      const grown = Buffer.allocUnsafe(scratch.length * 2);
      scratch.copy(grown, 0, 0, filled);
      scratch = grown;
    }
    const n = readSync(fd, scratch, filled, CHUNK, filled);
    if (n === 0) {
      if (filled === 0) return null;
      const stop = scratch[filled - 1] === CR ? filled - 1 : filled;
      return { text: scratch.toString('utf8', 0, stop), complete: false, length: filled };
    }
    const nl = scratch.indexOf(NEWLINE, filled);
    filled += n;
    if (nl !== -1 && nl < filled) {
      const stop = nl > 0 && scratch[nl - 1] === CR ? nl - 1 : nl;
      return { text: scratch.toString('utf8', 0, stop), complete: true, length: nl };
    }
    if (filled > maxBytes) throw new LineTooLongError(path, maxBytes);
  }
}

/** One file: null when it is not a regular file (skipped silently, as list-dir does). */
function probe(
  c: Candidate,
  maxBytes: number,
  out: ProbeResult,
  inside?: (realPath: string) => boolean,
): ProbedFile | null {
  const errors = out.errors;
  if (c.link) {
    try {
      // Real path first: a link out of the roots is never opened.
      if (inside && !inside(realPathSync(c.path))) {
        out.outside.push(c.path);
        return null;
      }
      if (!statSync(c.path).isFile()) return null;
    } catch (err) {
      errors.push(toListError(c.path, err));
      return null;
    }
  }
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO swapped in since readdir must not block the listing (fstat skips it).
    fd = openSync(c.path, READ_FLAGS);
  } catch (err) {
    errors.push(toListError(c.path, err));
    return null;
  }
  try {
    const s = fstatSync(fd);
    if (!s.isFile()) return null;
    const file: ProbedFile = { path: c.path, root: c.root, dir: c.dir, size: s.size, mtimeMs: s.mtimeMs, first: null };
    try {
      file.first = firstLine(fd, c.path, maxBytes);
    } catch (err) {
      file.readError = err;
    }
    return file;
  } catch (err) {
    errors.push(toListError(c.path, err));
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * Every `.jsonl` file in each root's child directories and directly in a root, with its first
 * line. Same files, order and errors as listSessionFiles; a missing root is not an error.
 */
export async function probeSessionFiles(roots: readonly string[], opts: ProbeOptions = {}): Promise<ProbeResult> {
  const { signal, onProgress } = opts;
  const batch = Math.max(1, opts.batch ?? 256);
  const maxBytes = opts.maxBytes ?? 16 * 1024 * 1024;
  const errors: ListError[] = [];
  const result: ProbeResult = { files: [], errors, outside: [] };
  const perRoot: Candidate[][] = [];
  for (const root of roots) {
    if (signal?.aborted) throw abortError(signal);
    const found: Candidate[] = [];
    const entries = await readDirEntries(root, errors, true);
    candidates(root, root, entries, found);
    const dirs = entries
      .filter((e) => isDirectoryEntry(root, e))
      .map((e) => ({ dir: join(root, e.name), linked: e.isSymbolicLink() }));
    const listed = await Promise.all(
      dirs.map(async ({ dir, linked }) => ({ dir, linked, entries: await readDirEntries(dir, errors, false) })),
    );
    for (const { dir, linked, entries: inDir } of listed) candidates(root, dir, inDir, found, linked);
    found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    perRoot.push(found);
  }
  const all = perRoot.flat();
  const files = result.files;
  for (let i = 0; i < all.length; i += batch) {
    if (signal?.aborted) throw abortError(signal);
    const end = Math.min(all.length, i + batch);
    for (let k = i; k < end; k++) {
      const f = probe(all[k]!, maxBytes, result, opts.inside);
      if (f) files.push(f);
    }
    onProgress?.(end, all.length);
    if (end < all.length) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return result;
}
