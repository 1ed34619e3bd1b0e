#!/usr/bin/env node
// `npm run bench [-- --quick]`: builds bench/*.ts into out/bench (vite, CommonJS for Node 20) and
// runs out/bench/run.cjs with the same arguments. See bench/run.ts for what is measured.
'use strict';
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

const root = join(__dirname, '..');
const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
const build = spawnSync(
  process.execPath,
  [vite, 'build', '--config', join(root, 'bench', 'vite.config.ts'), '--logLevel', 'warn'],
  {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      BENCH_ENTRIES: 'run,child-canopy,child-search,child-secrets,child-live,child-store,child-serve',
      VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true',
    },
  },
);
if (build.status !== 0) process.exit(build.status ?? 1);
const run = spawnSync(process.execPath, [join(root, 'out', 'bench', 'run.cjs'), ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
