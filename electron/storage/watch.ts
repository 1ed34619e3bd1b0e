/**
 * Debounced watching of session roots. Where fs.watch is recursive natively (macOS, Windows) one
 * watcher per root suffices; elsewhere (Linux) each root and each project directory gets its own
 * watcher, and directories that appear later are picked up from the root's events.
 */
import { watch, type FSWatcher } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createBatcher } from './watch-batch';

export interface WatchBatch {
  /** `.jsonl` files that were created, changed or removed. */
  files: string[];
  /** Directories whose contents changed in ways the events do not name (rescan them). */
  dirs: string[];
}

export interface WatchOptions {
  /** Quiet time before a batch is delivered. Default 150 ms. */
  debounceMs?: number;
  /** Longest a batch waits while events keep arriving (a session being written). Default 1 s. */
  maxWaitMs?: number;
  /**
   * After a quiet spell (no batch for `debounceMs`) the first event is delivered after only this
   * long, so a single appended line reaches the UI quickly; events during the following
   * `debounceMs` are coalesced as before. Default 10 ms (one write raises several events).
   */
  leadingMs?: number;
  /** Force one mode; default: recursive on macOS and Windows only. */
  recursive?: boolean;
}

const nativeRecursive = process.platform === 'darwin' || process.platform === 'win32';

function isSessionFile(name: string): boolean {
  return name.endsWith('.jsonl');
}

/** Call to stop watching; `ready` settles once every existing directory has its watcher. */
export type StopWatching = (() => void) & { ready: Promise<void> };

export function watchSessionRoots(
  roots: readonly string[],
  onChange: (batch: WatchBatch) => void,
  opts: WatchOptions = {},
): StopWatching {
  const debounceMs = opts.debounceMs ?? 150;
  const maxWaitMs = opts.maxWaitMs ?? 1000;
  const leadingMs = opts.leadingMs ?? 10;
  const recursive = opts.recursive ?? nativeRecursive;
  const watchers = new Map<string, FSWatcher>();
  const files = new Set<string>();
  const dirs = new Set<string>();
  let closed = false;
  const batcher = createBatcher({ debounceMs, maxWaitMs, leadingMs }, () => {
    if (files.size === 0 && dirs.size === 0) return;
    const batch = { files: [...files], dirs: [...dirs] };
    files.clear();
    dirs.clear();
    onChange(batch);
  });
  const schedule = (): void => batcher.touch();

  const unwatch = (dir: string): void => {
    watchers.get(dir)?.close();
    watchers.delete(dir);
  };

  const addWatcher = (dir: string, listener: (filename: string | null) => void, deep: boolean): boolean => {
    if (closed || watchers.has(dir)) return false;
    try {
      const watcher = watch(dir, { recursive: deep, persistent: false }, (_event, filename) => {
        if (!closed) listener(typeof filename === 'string' ? filename : null);
      });
      // The directory vanished or became unreadable: its parent's events report that.
      watcher.on('error', () => unwatch(dir));
      watchers.set(dir, watcher);
      return true;
    } catch {
      return false; // missing or unreadable: nothing to watch
    }
  };

  const watchProjectDir = (dir: string): void => {
    addWatcher(
      dir,
      (name) => {
        if (name !== null && isSessionFile(name)) files.add(join(dir, name));
        else if (name === null) dirs.add(dir);
        else return;
        schedule();
      },
      false,
    );
  };

  const onRootEntry = async (root: string, name: string, report = true): Promise<void> => {
    const path = join(root, name);
    const isDir = await stat(path).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (closed) return;
    if (isDir && !watchers.has(path)) {
      watchProjectDir(path);
      if (!report) return;
      dirs.add(path);
      schedule();
    } else if (!isDir && watchers.has(path)) {
      unwatch(path);
      dirs.add(path);
      schedule();
    }
  };

  const watchRoot = async (root: string): Promise<void> => {
    if (recursive) {
      addWatcher(
        root,
        (name) => {
          if (name === null) dirs.add(root);
          else if (isSessionFile(name)) files.add(join(root, name));
          else if (!/[\\/]/.test(name))
            dirs.add(join(root, name)); // a project dir came or went
          else return; // some other file inside a project dir
          schedule();
        },
        true,
      );
      return;
    }
    const ok = addWatcher(
      root,
      (name) => {
        if (name === null) {
          dirs.add(root);
          schedule();
        } else if (isSessionFile(name)) {
          files.add(join(root, name));
          schedule();
        } else {
          void onRootEntry(root, name);
        }
      },
      false,
    );
    if (!ok) return;
    const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
    await Promise.all(
      entries.map(async (entry) => {
        if (entry.isDirectory()) watchProjectDir(join(root, entry.name));
        else if (entry.isSymbolicLink()) await onRootEntry(root, entry.name, false);
      }),
    );
  };

  const ready = Promise.all(roots.map(watchRoot)).then(() => undefined);
  const close = (): void => {
    closed = true;
    batcher.close();
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
  };
  return Object.assign(close, { ready });
}

/** The same watcher for callers that only need the changed paths (files and directories). */
export function watchRoots(
  roots: readonly string[],
  onPaths: (paths: string[]) => void,
  opts: WatchOptions = {},
): StopWatching {
  return watchSessionRoots(roots, (batch) => onPaths([...batch.files, ...batch.dirs]), opts);
}
