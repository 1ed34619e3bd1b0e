/**
 * A stream (serve's upload body) written into a new private file (0600, never over an existing
 * path) through a byte mapping, with backpressure: memory holds a few chunks whatever the size.
 */
import { createWriteStream } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';

export type StreamEnd = { kind: 'done' } | { kind: 'gone' } | { kind: 'failed'; error: Error };

/** Maps each chunk to the bytes written (may throw: then the rest of `source` is read and dropped). */
export interface ChunkMap {
  write(chunk: Buffer): Buffer;
  end(): void;
}

/** Resolves once the file is whole (`done`), the source went away (`gone`) or `map` or the disk failed. */
export function streamToNewFile(source: Readable, path: string, map: ChunkMap): Promise<StreamEnd> {
  return new Promise((resolve) => {
    const file = createWriteStream(path, { flags: 'wx', mode: 0o600 });
    let settled = false;
    const finish = (end: StreamEnd) => {
      if (settled) return;
      settled = true;
      source.off('data', onData);
      if (end.kind !== 'done') {
        file.destroy();
        // Read and drop the rest: the client then gets the answer instead of a reset.
        if (!source.destroyed) source.resume();
      }
      resolve(end);
    };
    const onData = (chunk: Buffer) => {
      let out: Buffer;
      try {
        out = map.write(chunk);
      } catch (err) {
        return finish({ kind: 'failed', error: err as Error });
      }
      if (out.length > 0 && !file.write(out)) {
        source.pause();
        file.once('drain', () => source.resume());
      }
    };
    source.on('data', onData);
    source.on('end', () => {
      if (settled) return;
      try {
        map.end();
      } catch (err) {
        return finish({ kind: 'failed', error: err as Error });
      }
      file.end(() => finish({ kind: 'done' }));
    });
    source.on('close', () => {
      if (!source.readableEnded) finish({ kind: 'gone' });
    });
    source.on('error', () => finish({ kind: 'gone' }));
    file.on('error', (error) => finish({ kind: 'failed', error }));
  });
}

/** Removes a file if it is there (a staged upload that was not kept). */
export async function removeFileIfAny(path: string): Promise<void> {
  await rm(path, { force: true });
}

/** A small file's text (serve's fallback upload target hands a staged upload to a handler that takes text). */
export function readTextFile(path: string): Promise<string> {
  return readFile(path, 'utf8');
}
