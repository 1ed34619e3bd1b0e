/**
 * Where a worker thread's code is: next to the running bundle (out/cli/NAME.cjs, out/main/NAME.js,
 * out/bench/NAME.cjs), or, when the sources run as they are (vitest), the TypeScript entry in the
 * caller's folder (`dir`, its __dirname: an entry sits in the wing that runs it) loaded through jiti (a development dependency; bundles never take this path).
 */
import { basename, dirname, join } from 'node:path';
import { CanopyError } from '../shared/errors';
import { statPathOrNull } from '../storage/stat';

export interface WorkerScript {
  /** A file path, or the source of a loader when `eval` is true. */
  script: string;
  eval: boolean;
}

export function workerScript(name: string, dir: string): WorkerScript {
  // Code shared by several entries is bundled into chunks/: the entries are one folder up.
  const bundle = basename(dir) === 'chunks' ? dirname(dir) : dir;
  for (const ext of ['.cjs', '.js']) {
    const built = join(bundle, name + ext);
    if (statPathOrNull(built)) return { script: built, eval: false };
  }
  const source = join(dir, `${name}.ts`);
  if (!statPathOrNull(source)) throw new CanopyError('internal', `the worker script ${name} is missing from ${dir}`);
  const at = JSON.stringify(source);
  // jiti is resolved from the source file, so the worker needs no path of its own to node_modules.
  return {
    script: `const r = require('node:module').createRequire(${at}); r('jiti').createJiti(${at})(${at});`,
    eval: true,
  };
}
