/**
 * Opening session files. One streaming pass builds a compact index (envelopes in memory, bodies
 * read from the file on demand, see core/session-index.ts); the result is the same ParsedSession
 * parseSession would give. Open sessions are kept (a few) and follow their files: reopening a
 * file that grew reads only the appended bytes; an unchanged file costs one stat; a v1 file
 * keeps the ids its in-memory migration generated while it is unchanged.
 */
import { BodyError, parseSession, type ParsedSession, type RawLine } from '../core';
import { CanopyError } from '../shared/errors';
import { readLineBatches } from '../storage/read';
import { errnoCode, statPath } from '../storage/stat';
import type { FileStamp } from './file-cache';
import { LiveSession, type IndexOptions, type RefreshResult } from './live';
import { delayedProgress } from './progress';

export interface OpenOptions {
  signal?: AbortSignal;
  /**
   * Bytes read and file size, after each 1 MiB read, once the open has taken `progressDelayMs`
   * (fast opens report nothing).
   */
  onProgress?: (bytesRead: number, totalBytes: number) => void;
  /** Default 200 ms. */
  progressDelayMs?: number;
  /** 'parse': parse every line while indexing (slower; exact even for lines that only look like pi's). */
  verify?: 'fast' | 'parse';
  /** Id source for v1 entries (tests make it deterministic). */
  newId?: () => string;
  /**
   * Live views: a file written to less than this long ago is still being written, and the
   * torn_last_line issue of its unfinished last line is left out (LiveSession.sessionAt).
   * Unset (the CLI, a one-shot read): always reported.
   */
  writerIdleMs?: number;
  /** The clock for writerIdleMs (tests). */
  now?: () => number;
}

/** How long a writer must have been idle before its unfinished last line counts as torn. */
export const WRITER_IDLE_MS = 5000;

const MAX_OPEN = 8;
const cache = new Map<string, Promise<LiveSession>>();
/** Files where a line looked like pi's shape but was not valid JSON: indexed with verify 'parse'. */
const strictPaths = new Set<string>();

function fileError(path: string, err: unknown): Error {
  if (err instanceof CanopyError || isAbort(err)) return err as Error;
  const code = errnoCode(err);
  const message = err instanceof Error ? err.message : String(err);
  if (code === 'ENOENT' || code === 'ENOTDIR') return new CanopyError('not_found', `no such file: ${path}`);
  if (code === 'EISDIR') return new CanopyError('invalid_session', `${path} is a directory`);
  return new CanopyError('io', `cannot read ${path}: ${message}`);
}

function isAbort(err: unknown): boolean {
  return err instanceof Error && err.name === 'AbortError';
}

function indexOptions(path: string, opts: OpenOptions): IndexOptions {
  const out: IndexOptions = { verify: opts.verify ?? (strictPaths.has(path) ? 'parse' : 'fast') };
  if (opts.signal) out.signal = opts.signal;
  if (opts.newId) out.newId = opts.newId;
  const progress = delayedProgress(opts.onProgress, opts.progressDelayMs);
  if (progress) out.onProgress = progress;
  return out;
}

/** Every physical line of the file, streamed (never one whole-file string). */
export async function readRawLines(path: string): Promise<RawLine[]> {
  const lines: RawLine[] = [];
  for await (const batch of readLineBatches(path)) {
    for (const line of batch) lines.push(line);
  }
  return lines;
}

/** parseSession over the whole text of the file (every body in memory): the reference the index must equal. */
export async function parseFileEagerly(path: string, opts: { newId?: () => string } = {}): Promise<ParsedSession> {
  try {
    return parseSession(await readRawLines(path), opts);
  } catch (err) {
    throw fileError(path, err);
  }
}

async function stampOf(path: string): Promise<FileStamp> {
  try {
    const facts = await statPath(path);
    if (facts.isDirectory) throw new CanopyError('invalid_session', `${path} is a directory`);
    return facts;
  } catch (err) {
    throw fileError(path, err);
  }
}

/**
 * One streaming pass over `path` into an indexed session, not cached and not followed.
 * Throws CanopyError not_found / io, or the AbortError of `signal`.
 */
export async function openIndexed(path: string, opts: OpenOptions = {}): Promise<ParsedSession> {
  await stampOf(path);
  try {
    const live = await LiveSession.open(path, indexOptions(path, opts));
    return live.session;
  } catch (err) {
    throw fileError(path, err);
  }
}

function remember(path: string, p: Promise<LiveSession>): void {
  cache.delete(path);
  cache.set(path, p);
  while (cache.size > MAX_OPEN) {
    const oldest = cache.keys().next().value as string;
    const evicted = cache.get(oldest);
    cache.delete(oldest);
    void evicted?.then((l) => l.close(), () => undefined);
  }
  p.catch(() => {
    if (cache.get(path) === p) cache.delete(path);
  });
}

/**
 * The open (followed) session at `path`, brought up to date with the file: unchanged → as is;
 * grown → the appended lines are indexed; truncated or replaced → indexed again.
 */
export async function openLive(path: string, opts: OpenOptions = {}): Promise<LiveSession> {
  const stamp = await stampOf(path);
  const pending = cache.get(path);
  if (pending) {
    let live: LiveSession | null = null;
    try {
      live = await pending;
    } catch (err) {
      // Another caller's open was cancelled: ours was not, so open again.
      if (!(isAbort(err) && !opts.signal?.aborted)) throw err;
    }
    if (live) {
      cache.delete(path);
      cache.set(path, pending);
      if (live.stamp.size === stamp.size && live.stamp.mtimeMs === stamp.mtimeMs) return live;
      try {
        await live.refresh(indexOptions(path, opts));
      } catch (err) {
        throw fileError(path, err);
      }
      return live;
    }
  }
  const p = LiveSession.open(path, indexOptions(path, opts)).catch((err: unknown) => {
    throw fileError(path, err);
  });
  remember(path, p);
  return p;
}

/**
 * The parsed session at `path` (a `fatal` result is returned, not thrown: the caller decides).
 * Throws CanopyError `not_found` / `io` when the file cannot be read. The object stays valid
 * after the file grows (its entry list may gain entries); open again for the new state.
 */
export async function openSession(path: string, opts: OpenOptions = {}): Promise<ParsedSession> {
  const live = await openLive(path, opts);
  return opts.writerIdleMs === undefined ? live.session : live.sessionAt((opts.now ?? Date.now)(), opts.writerIdleMs);
}

/** The followed session at `path` if one is open (no I/O). */
export async function liveSessionIfOpen(path: string): Promise<LiveSession | undefined> {
  const p = cache.get(path);
  return p ? p.catch(() => undefined) : undefined;
}

/** Forget the open session at `path` (its file handle is closed). */
export function forgetSession(path: string): void {
  const p = cache.get(path);
  cache.delete(path);
  void p?.then((l) => l.close(), () => undefined);
}

/**
 * Runs `fn` on the session at `path`. A body that no longer matches its index (the file was
 * rewritten under us, or a line only looked valid) throws a BodyError from inside `fn`: the file
 * is then indexed again (parsing every line after an invalid body) and `fn` runs once more.
 */
export async function withSession<T>(path: string, fn: (s: ParsedSession) => T | Promise<T>, opts: OpenOptions = {}): Promise<T> {
  try {
    return await fn(await openSession(path, opts));
  } catch (err) {
    if (!(err instanceof BodyError)) throw err;
    // A body that is not JSON or names another entry than its envelope: either the file was
    // rewritten in place or a line only looked like pi's shape. Parsing every line covers both.
    if (err.code !== 'body_unreadable') strictPaths.add(path);
    forgetSession(path);
    try {
      return await fn(await openSession(path, opts));
    } catch (again) {
      if (again instanceof BodyError) throw new CanopyError('io', `cannot read ${path}: ${again.message}`);
      throw again;
    }
  }
}

export interface FollowResult {
  /** not_open: the file is not open here (nothing read); removed: the file is gone (forgotten). */
  kind: RefreshResult['kind'] | 'not_open' | 'removed';
  /** Entries added to the open session (or its entry count after a re-index). */
  added: number;
  sizeBytes: number;
}

/**
 * A watcher saw `path` change: an open session reads what was appended (or is indexed again
 * when the file was truncated or replaced); a file that is not open is only stat'ed.
 */
export async function followFile(path: string): Promise<FollowResult> {
  let facts;
  try {
    facts = await statPath(path);
  } catch (err) {
    if (errnoCode(err) !== 'ENOENT' && errnoCode(err) !== 'ENOTDIR') throw fileError(path, err);
    forgetSession(path);
    return { kind: 'removed', added: 0, sizeBytes: 0 };
  }
  const pending = cache.get(path);
  const live = pending ? await pending.catch(() => null) : null;
  if (!live) return { kind: 'not_open', added: 0, sizeBytes: facts.size };
  try {
    const r = await live.refresh();
    return { kind: r.kind, added: r.added, sizeBytes: live.stamp.size };
  } catch (err) {
    forgetSession(path);
    throw fileError(path, err);
  }
}

export function clearOpenCache(): void {
  for (const path of [...cache.keys()]) forgetSession(path);
  strictPaths.clear();
}
