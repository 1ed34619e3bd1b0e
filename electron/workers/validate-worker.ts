/**
 * The validating helper of a big file's strict index pass (core/engine/shared-chunks.ts): copies
 * each chunk the indexing thread read into the SIMD module's memory and validates its lines there,
 * until the indexing thread closes the ring.
 */
import { workerData } from 'node:worker_threads';
// Not the facade: the helper's start is on the clock (loading all of core cost it ~30 ms), and
// these two modules are all it runs.
// eslint-disable-next-line no-restricted-imports
import { copyingValidator, serveChunks } from '../core/engine/shared-chunks';
// eslint-disable-next-line no-restricted-imports
import { simdScan } from '../core/rules/json-string-simd';
import type { ValidateWorkerData } from '../repo/validate-ahead';

function main(data: ValidateWorkerData): void {
  const simd = simdScan();
  if (!simd) return; // no SIMD module here: the indexing thread validates every line
  const memory = Buffer.from(simd.mem.buffer, simd.mem.byteOffset, simd.mem.byteLength);
  serveChunks(
    data,
    copyingValidator(memory, (s, e) => simd.validLine(s, e) === 1),
  );
}

main(workerData as ValidateWorkerData);
