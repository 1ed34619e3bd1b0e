/**
 * Opening session files: the options, the errors, and the one-shot reads. One streaming pass
 * builds a compact index (envelopes in memory, bodies read from the file on demand, see
 * core/engine/session-index.ts); the result is the same ParsedSession parseSession would give.
 * Sessions kept open and followed belong to a SessionStore (session-store.ts).
 */
import { parseSession, type ParsedSession, type RawLine } from '../core';
import { CanopyError } from '../shared/errors';
import { readLineBatches } from '../storage/read';
import { errnoCode, isMissing, statPath } from '../storage/stat';
import type { FileStamp } from './file-cache';
import { LiveSession, type IndexOptions } from './live';
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

/** A file system error as a CanopyError naming the file (an abort stays an abort). */
export function fileError(path: string, err: unknown): Error {
  if (err instanceof CanopyError || isAbort(err)) return err as Error;
  const code = errnoCode(err);
  const message = err instanceof Error ? err.message : String(err);
  if (isMissing(err)) return new CanopyError('not_found', `no such file: ${path}`);
  if (code === 'EISDIR') return new CanopyError('invalid_session', `${path} is a directory`);
  return new CanopyError('io', `cannot read ${path}: ${message}`);
}

export function isAbort(err: unknown): boolean {
  return err instanceof Error && err.name === 'AbortError';
}

/** The indexer's options for an open; `strict`: a line of this file looked like pi's but was not JSON. */
export function indexOptions(opts: OpenOptions, strict = false): IndexOptions {
  const out: IndexOptions = { verify: opts.verify ?? (strict ? 'parse' : 'fast') };
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

export async function stampOf(path: string): Promise<FileStamp> {
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
    const live = await LiveSession.open(path, indexOptions(opts));
    return live.session;
  } catch (err) {
    throw fileError(path, err);
  }
}
