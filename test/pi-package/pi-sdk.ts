/**
 * pi's SDK (pi-coding-agent 1.6.0, a devDependency) loaded in this Node 20 test process, after
 * node20.mjs gave it the Node 22 functions it reaches while loading.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

type Sdk = typeof import('@earendil-works/pi-coding-agent');
// pi's own pi-ai (1.6.0, nested under it): the package at the top of node_modules is an older one.
export type Ai =
  typeof import('../../node_modules/@earendil-works/pi-coding-agent/node_modules/@earendil-works/pi-ai/dist/index.js');

let loaded: Promise<{ sdk: Sdk; ai: Ai }> | null = null;

export function loadPiSdk(): Promise<{ sdk: Sdk; ai: Ai }> {
  loaded ??= (async () => {
    await import('./node20.mjs');
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
