/**
 * The reading and validating helper of a big file's strict index pass (core/engine/shared-chunks.ts):
 * reads the file's chunks into the shared slots ahead of the indexing thread and validates their
 * lines there (the slots are the SIMD module's memory), until the file ends or the ring is closed.
 * The same file: its inode is checked on opening.
 */
import { workerData } from 'node:worker_threads';
// Not the facade: the helper's start is on the clock (loading all of core cost it ~30 ms), and
// these two modules are all it runs.
// eslint-disable-next-line no-restricted-imports
import { chunkSource, serveChunks } from '../core/engine/shared-chunks';
// eslint-disable-next-line no-restricted-imports
import { simdScanIn } from '../core/rules/json-string-simd';
import { openReaderSync } from '../storage/regular-file';
import type { ValidateWorkerData } from './validate-ahead';

const NEWLINE = 0x0a;
/** Buffer's indexOf (memchr) on any slot view. */
const { indexOf } = Buffer.prototype as unknown as { indexOf: (this: Uint8Array, v: number, from: number) => number };

function main(data: ValidateWorkerData): void {
  // The SIMD module over the ring's memory: each chunk is validated where it was read.
  const simd = simdScanIn(data.memory, data.stack);
  if (!simd) return; // no SIMD module here: the indexing thread reads and validates every chunk
  const file = openReaderSync(data.path);
  try {
    if (file.ino !== data.ino) return; // replaced since the indexer opened it
    serveChunks(
      data,
      chunkSource(
        data.start,
        file.readAt,
        (slot, s, e) => simd.validLine(slot.byteOffset + s, slot.byteOffset + e) === 1,
        (slot, from) => indexOf.call(slot, NEWLINE, from),
      ),
    );
  } finally {
    file.close();
  }
}

main(workerData as ValidateWorkerData);
