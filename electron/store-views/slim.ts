/**
 * Slim copies: a new session file next to the source, written like a fork (temp file, fsync,
 * no-clobber link; storage/create.ts), whose lines are the source's with image blocks and long
 * outputs replaced (core's slimLine). The source is streamed line by line and the copy written as it
 * is produced: a bounded queue between the two (the scan waits while it is full), so a 2.6 GiB
 * session never becomes one string and memory stays bounded by the longest line.
 */
import { CanopyError } from '../shared/errors';
import { dirname, resolve } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { sessionFileName } from '../core';
import { slimHeader, slimLine, type SlimOptions } from './rules/slim-plan';
import { createNewFile } from '../storage/create';
import { decodeBytes, scanLines, type ScanOptions } from '../storage/line-scan';
import { ByteQueue } from './byte-queue';
import { readFirstLine } from '../storage/read';
import { statPath } from '../storage/stat';

export interface SlimResult {
  file: string;
  /** The new session file. */
  path: string;
  id: string;
  bytesBefore: number;
  bytesAfter: number;
  imagesRemoved: number;
  outputsCut: number;
}

export interface SlimRunOptions extends SlimOptions {
  now?: () => Date;
  newSessionId?: () => string;
}

const NEWLINE = Uint8Array.of(0x0a);

/** The slim copy's header line; a file that is no format-3 session is `invalid_session` (a clear answer, not `internal`). */
async function sourceHeader(file: string, id: string, timestamp: string): Promise<string> {
  const first = await readFirstLine(file);
  if (!first) throw new CanopyError('invalid_session', `${file}: empty file (not a session)`);
  try {
    return slimHeader(first.text, file, id, timestamp);
  } catch (err) {
    throw new CanopyError('invalid_session', `${file}: ${(err as Error).message}`);
  }
}

/** Writes the slim copy of `file`; throws (CreateFileError, read errors, not a v3 session) without leaving a file. */
export async function slimSession(file: string, opts: SlimRunOptions): Promise<SlimResult> {
  file = resolve(file);
  const before = await statPath(file);
  const id = (opts.newSessionId ?? uuidv7)();
  const timestamp = (opts.now?.() ?? new Date()).toISOString();
  // Checked before anything is created: a file that is no v3 session gets no copy.
  const header = await sourceHeader(file, id, timestamp);
  const name = sessionFileName(timestamp, id);
  const queue = new ByteQueue();
  let counts: SlimCounts = { imagesRemoved: 0, outputsCut: 0, bytes: 0 };
  const produce = async (): Promise<void> => {
    try {
      counts = await slimLines(file, header, opts, (b) => queue.push(b), { sliceMs: 5, pause: () => queue.wait() });
      queue.finish();
    } catch (err) {
      queue.finish(err);
    }
  };
  let started: Promise<void> | null = null;
  const content = {
    [Symbol.asyncIterator]: () => {
      started ??= produce();
      return queue.drain();
    },
  };
  const path = await createNewFile(dirname(file), name, content);
  await started;
  return {
    file,
    path,
    id,
    bytesBefore: before.size,
    bytesAfter: counts.bytes,
    imagesRemoved: counts.imagesRemoved,
    outputsCut: counts.outputsCut,
  };
}

export interface SlimCounts {
  imagesRemoved: number;
  outputsCut: number;
  /** Bytes of the slim copy. */
  bytes: number;
}

/** The slim copy's bytes, line by line, handed to `push` (which must copy what it keeps). */
async function slimLines(
  file: string,
  header: string,
  opts: SlimOptions,
  push: (b: Uint8Array) => void,
  scan: ScanOptions = {},
): Promise<SlimCounts> {
  const counts: SlimCounts = { imagesRemoved: 0, outputsCut: 0, bytes: 0 };
  const out = (b: Uint8Array): void => {
    counts.bytes += b.length;
    push(b);
  };
  let headerDone = false;
  await scanLines(
    file,
    (buf, start, end, line, _offset, complete) => {
      if (!headerDone) {
        headerDone = true;
        out(Buffer.from(header));
      } else {
        const cr = end > start && buf[end - 1] === 0x0d ? 1 : 0;
        const slim = slimLine(buf, start, end - cr, line, opts, decodeBytes);
        if (slim) {
          for (const p of slim.pieces) out(p);
          if (cr) out(buf.subarray(end - 1, end));
          counts.imagesRemoved += slim.imagesRemoved;
          counts.outputsCut += slim.outputsCut;
        } else out(buf.subarray(start, end));
      }
      if (complete) out(NEWLINE);
    },
    scan,
  );
  return counts;
}

/** What slimSession would write, counted without writing (the app's preview). */
export async function previewSlim(
  file: string,
  opts: SlimOptions,
  scan: Pick<ScanOptions, 'signal'> = {},
): Promise<SlimCounts & { bytesBefore: number }> {
  const header = await sourceHeader(file, 'x'.repeat(36), new Date(0).toISOString());
  const before = await statPath(file);
  const counts = await slimLines(file, header, opts, () => {}, scan);
  return { ...counts, bytesBefore: before.size };
}
