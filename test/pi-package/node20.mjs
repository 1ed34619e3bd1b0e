// pi-coding-agent 1.6.0 declares Node >= 22. On Node 20 (this repo's floor) three Node 22 functions
// it and undici reach while loading get stand-ins that throw if ever called, and a module hook drops
// fs.globSync's import. Test-only: `node --import ./node20.mjs`, or imported before pi (pi-sdk.ts).
import { createRequire, register } from 'node:module';

const require = createRequire(import.meta.url);
// The CommonJS module objects undici reads (an ESM namespace cannot be added to).
const zlib = require('node:zlib');
const workerThreads = require('node:worker_threads');
zlib.createZstdDecompress ??= () => {
  throw new Error('zstd needs Node 22');
};
workerThreads.markAsUncloneable ??= () => undefined;
register('./node20-hooks.mjs', import.meta.url);
