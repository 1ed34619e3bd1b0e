/**
 * What the user explicitly opened beyond the roots: folders (each an extra confined root), single
 * files, and uploaded files. Paths come only from main (native dialog, argv, `canopy serve FILE`),
 * never from the renderer. Uploaded bytes (serve mode's file input and drops) are kept in a private
 * folder under the OS temp dir, never inside a root, and removed on close: the readers work on files.
 */
import { dirname, join, resolve, sep } from 'node:path';
import { listSessionFiles, listSessions, type ListingCache, type SessionListing } from './sessions';
import { CanopyError } from '../shared/errors';
import { createNewFile } from '../storage/create';
import { makePrivateDir, makeProcessDir, removeTree, sweepDeadOwners } from '../storage/private-dir';
import { moveFileNoClobber } from '../storage/move-file';
import { isMissing, realPathSync, statPathSync } from '../storage/stat';

export type OpenedOrigin = 'opened' | 'uploaded';

/** Uploads kept at once: one more removes the oldest (each may be up to serve's 1 GiB upload cap). */
export const MAX_HELD_UPLOADS = 16;
/** The upload folder's name before `<pid>-XXXXXX`, in the OS temp dir. */
export const UPLOAD_DIR_BASE = 'canopy-uploads-';

/** An upload kept, and older ones removed to keep MAX_HELD_UPLOADS. */
export interface Upload {
  real: string;
  evicted: string[];
}

/** A file name for an upload: its base name without path separators or control characters, ending in `.jsonl`. */
export function uploadName(name: string): string {
  const base = (name.split(/[\\/]/).pop() ?? '')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f]/g, '')
    .slice(0, 200)
    .replace(/^\.+/, '');
  const safe = base || 'uploaded';
  return safe.endsWith('.jsonl') ? safe : `${safe}.jsonl`;
}

function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

export class OpenedSet {
  private readonly dirs = new Set<string>();
  private readonly files = new Map<string, OpenedOrigin>();
  private uploadDir: string | null = null;
  private uploads = 0;
  /** Uploaded files kept, oldest first. */
  private readonly held: string[] = [];

  /** Adds a folder or file the user chose in main; returns its real path and kind. */
  addPath(path: string): { real: string; kind: 'dir' | 'file' } {
    let real: string;
    let facts;
    try {
      real = realPathSync(resolve(path));
      facts = statPathSync(real);
    } catch (err) {
      if (isMissing(err)) throw new CanopyError('not_found', `no such file or folder: ${path}`);
      throw new CanopyError('io', `cannot open ${path}: ${(err as Error).message}`);
    }
    if (facts.isDirectory) {
      this.dirs.add(real);
      return { real, kind: 'dir' };
    }
    if (!facts.isFile) throw new CanopyError('invalid_session', `${path} is not a file or folder`);
    if (!real.endsWith('.jsonl'))
      throw new CanopyError('invalid_session', `${path}: Canopy opens pi session files (*.jsonl)`);
    if (!this.files.has(real)) this.files.set(real, 'opened');
    return { real, kind: 'file' };
  }

  /** A file Canopy wrote next to an opened one (a fork): listed with it. */
  addWritten(path: string): void {
    const real = realPathSync(path);
    if (!this.files.has(real)) this.files.set(real, 'opened');
  }

  /**
   * Keeps uploaded `text` as a new read-only file in the private upload folder, refused when that
   * folder lies inside one of `realRoots` (nothing of Canopy's is written in a root).
   */
  async addUpload(name: string, text: string, realRoots: readonly string[]): Promise<Upload> {
    const sub = makePrivateDir(`${++this.uploads}-`, this.uploadFolder(realRoots));
    return this.keep(realPathSync(await createNewFile(sub, uploadName(name), text)));
  }

  /** A new path in the private upload folder for an upload's bytes as they arrive (serve streams them there). */
  stagingPath(realRoots: readonly string[]): string {
    return join(this.uploadFolder(realRoots), `incoming-${++this.uploads}.part`);
  }

  /** Keeps the staged file at `staged` (moved, never copied) as the upload `name`. */
  async adoptUpload(name: string, staged: string, realRoots: readonly string[]): Promise<Upload> {
    const sub = makePrivateDir(`${++this.uploads}-`, this.uploadFolder(realRoots));
    const target = join(sub, uploadName(name));
    await moveFileNoClobber(staged, target);
    return this.keep(realPathSync(target));
  }

  private uploadFolder(realRoots: readonly string[]): string {
    // One folder per process, named by its pid: the next serve sweeps it if this one was killed.
    if (!this.uploadDir) {
      sweepDeadOwners(UPLOAD_DIR_BASE);
      this.uploadDir = makeProcessDir(UPLOAD_DIR_BASE);
    }
    const dir = this.uploadDir;
    if (realRoots.some((root) => isInside(root, dir))) {
      throw new CanopyError(
        'forbidden',
        `the upload folder ${dir} lies inside a session root; uploads are not kept there`,
      );
    }
    return dir;
  }

  /** Lists `real` as uploaded; past MAX_HELD_UPLOADS the oldest uploads are removed (their paths returned). */
  private keep(real: string): Upload {
    this.files.set(real, 'uploaded');
    this.held.push(real);
    const evicted = this.held.splice(0, Math.max(0, this.held.length - MAX_HELD_UPLOADS));
    for (const old of evicted) {
      this.files.delete(old);
      removeTree(dirname(old));
    }
    return { real, evicted };
  }

  /** Folders, then single files: the extra places listed and confined to. */
  roots(): string[] {
    return [...this.dirs];
  }

  singleFiles(): string[] {
    return [...this.files.keys()];
  }

  /** 'uploaded' / 'opened' for a listed path outside the configured roots, else null. */
  originOf(path: string): OpenedOrigin | null {
    let real = path;
    try {
      real = realPathSync(path);
    } catch {
      // a vanished file: judge by its listed path
    }
    const file = this.files.get(real);
    if (file) return file;
    for (const d of this.dirs) if (isInside(d, real)) return 'opened';
    return null;
  }

  isEmpty(): boolean {
    return this.dirs.size === 0 && this.files.size === 0;
  }

  /** Removes the uploaded copies. */
  close(): void {
    if (this.uploadDir) removeTree(this.uploadDir);
    this.uploadDir = null;
    for (const old of this.held.splice(0)) this.files.delete(old);
  }
}

/** The sessions of the opened folders (the roots' layout) and files. */
export async function listOpened(set: OpenedSet, cache?: ListingCache): Promise<SessionListing> {
  const dirs =
    set.roots().length > 0 ? await listSessions(set.roots(), cache ? { cache } : {}) : { sessions: [], skipped: [] };
  const files = await listSessionFiles(set.singleFiles(), cache);
  return { sessions: [...dirs.sessions, ...files.sessions], skipped: [...dirs.skipped, ...files.skipped] };
}
