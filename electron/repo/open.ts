/**
 * Open a session file: one streaming read into lines, parsed by the core. Cached by
 * (path, size, mtime), so reopening an unchanged file costs one stat, and a v1 file keeps the ids
 * its in-memory migration generated.
 */
import { parseSession, type ParsedSession, type RawLine } from '../core';
import { CanopyError } from '../shared/errors';
import { readLineBatches } from '../storage/read';
import { errnoCode, statPath } from '../storage/stat';
import { FileCache, type FileStamp } from './file-cache';

// Parsed sessions are big (every entry object): keep a few, and at most ~1 GiB of source files.
const cache = new FileCache<ParsedSession>(8, 1024 * 1024 * 1024);

function fileError(path: string, err: unknown): CanopyError {
  if (err instanceof CanopyError) return err;
  const code = errnoCode(err);
  const message = err instanceof Error ? err.message : String(err);
  if (code === 'ENOENT' || code === 'ENOTDIR') return new CanopyError('not_found', `no such file: ${path}`);
  if (code === 'EISDIR') return new CanopyError('invalid_session', `${path} is a directory`);
  return new CanopyError('io', `cannot read ${path}: ${message}`);
}

/** Every physical line of the file, streamed (never one whole-file string). */
export async function readRawLines(path: string): Promise<RawLine[]> {
  const lines: RawLine[] = [];
  for await (const batch of readLineBatches(path)) {
    for (const line of batch) lines.push(line);
  }
  return lines;
}

async function load(path: string): Promise<ParsedSession> {
  try {
    return parseSession(await readRawLines(path));
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
 * The parsed session at `path` (a `fatal` result is returned, not thrown: the caller decides).
 * Throws CanopyError `not_found` / `io` when the file cannot be read.
 */
export async function openSession(path: string): Promise<ParsedSession> {
  const stamp = await stampOf(path);
  return cache.getOrLoad(path, stamp, () => load(path), stamp.size);
}

export function clearOpenCache(): void {
  cache.clear();
}
