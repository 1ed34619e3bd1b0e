/**
 * The validating helper of a big file's strict index pass (core/engine/verdict-ring.ts): reads the
 * file's chunks straight into the SIMD module's memory and validates their lines there, from the
 * file's end backwards until it meets the indexing thread (or is closed). The same file: its inode is checked on opening.
 */
import { workerData } from 'node:worker_threads';
import { chunkSource, serveRing, simdScan } from '../core';
import { openReaderSync } from '../storage/regular-file';
import type { ValidateWorkerData } from '../repo/validate-ahead';

function main(data: ValidateWorkerData): void {
  const simd = simdScan();
  if (!simd) return; // no SIMD module here: the indexing thread validates every line
  const file = openReaderSync(data.path);
  try {
    if (file.ino !== data.ino) return; // replaced since the indexer opened it
    const memory = Buffer.from(simd.mem.buffer, simd.mem.byteOffset, simd.mem.byteLength);
    serveRing(
      data.control,
      chunkSource(memory, data.start, file.readAt, (s, e) => simd.validLine(s, e) === 1),
    );
  } finally {
    file.close();
  }
}

main(workerData as ValidateWorkerData);
