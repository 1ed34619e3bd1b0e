/**
 * The reading and validating helper of a big file's strict index pass (core/engine/shared-chunks.ts):
 * reads the file's chunks into the shared slots ahead of the indexing thread and validates their
 * lines in the SIMD module's memory, until the file ends or the ring is closed. The same file: its
 * inode is checked on opening.
 */
import { workerData } from 'node:worker_threads';
// Not the facade: the helper's start is on the clock (loading all of core cost it ~30 ms), and
// these two modules are all it runs.
// eslint-disable-next-line no-restricted-imports
import { chunkSource, serveChunks } from '../core/engine/shared-chunks';
// eslint-disable-next-line no-restricted-imports
import { simdScan } from '../core/rules/json-string-simd';
import { openReaderSync } from '../storage/regular-file';
import type { ValidateWorkerData } from '../repo/validate-ahead';

function main(data: ValidateWorkerData): void {
  const simd = simdScan();
  if (!simd) return; // no SIMD module here: the indexing thread reads and validates every chunk
  const file = openReaderSync(data.path);
  try {
    if (file.ino !== data.ino) return; // replaced since the indexer opened it
    const memory = Buffer.from(simd.mem.buffer, simd.mem.byteOffset, simd.mem.byteLength);
    serveChunks(
      data,
      chunkSource(data.start, file.readAt, memory, (s, e) => simd.validLine(s, e) === 1),
    );
  } finally {
    file.close();
  }
}

main(workerData as ValidateWorkerData);
