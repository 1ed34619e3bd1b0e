/**
 * pi's SDK (pi-coding-agent 1.6.0, a devDependency) loaded in this Node 20 test process. pi
 * declares Node >= 22: three Node 22 functions it and undici reach while loading get stand-ins
 * (they are never called by what the tests do), and a module hook drops fs.globSync's import.
 */
import { createRequire, register } from 'node:module';
import type * as workerThreads from 'node:worker_threads';
import type * as zlib from 'node:zlib';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

type Sdk = typeof import('@earendil-works/pi-coding-agent');
// pi's own pi-ai (1.6.0, nested under it): the package at the top of node_modules is an older one.
export type Ai =
  typeof import('../../node_modules/@earendil-works/pi-coding-agent/node_modules/@earendil-works/pi-ai/dist/index.js');

let loaded: Promise<{ sdk: Sdk; ai: Ai }> | null = null;

export function loadPiSdk(): Promise<{ sdk: Sdk; ai: Ai }> {
  loaded ??= (async () => {
    // The CommonJS module objects undici reads (an ESM namespace cannot be added to).
    const require = createRequire(import.meta.url);
    const z = require('node:zlib') as typeof zlib & Record<string, unknown>;
    const wt = require('node:worker_threads') as typeof workerThreads & Record<string, unknown>;
    z.createZstdDecompress ??= () => {
      throw new Error('zstd needs Node 22');
    };
    wt.markAsUncloneable ??= () => undefined;
    register('./node20-hooks.mjs', import.meta.url);
    const piAi = join(
      __dirname,
      '../../node_modules/@earendil-works/pi-coding-agent/node_modules/@earendil-works/pi-ai/dist/index.js',
    );
    const [sdk, ai] = await Promise.all([
      import('@earendil-works/pi-coding-agent'),
      import(/* @vite-ignore */ pathToFileURL(piAi).href) as Promise<Ai>,
    ]);
    return { sdk, ai };
  })();
  return loaded;
}
