#!/usr/bin/env node
// `canopy`: runs the built CLI (out/cli/index.cjs). In a source checkout it first (re)builds it when
// it is missing or older than the sources. Build output goes to stderr so `--json` stdout stays clean.
'use strict';
const { spawnSync } = require('node:child_process');
const { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const built = join(root, 'out', 'cli', 'index.cjs');

function newestSourceMtime() {
  let newest = 0;
  const visit = (path) => {
    let s;
    try {
      s = statSync(path);
    } catch {
      return;
    }
    if (s.isDirectory()) {
      for (const name of readdirSync(path)) visit(join(path, name));
    } else if (/\.(ts|js|cjs|json)$/.test(path)) {
      newest = Math.max(newest, s.mtimeMs);
    }
  };
  for (const p of ['electron', 'vite.cli.config.ts', 'package.json']) visit(join(root, p));
  return newest;
}

function needsBuild() {
  if (!existsSync(built)) return true;
  if (!existsSync(join(root, 'electron'))) return false; // an installed package ships only out/
  return statSync(built).mtimeMs < newestSourceMtime();
}

function build() {
  // Build into a private directory, then rename: two canopy processes starting at once never
  // run a half-written bundle.
  const tempOut = join('out', `.cli-build-${process.pid}`);
  const r = spawnSync(
    'npx',
    ['vite', 'build', '--config', 'vite.cli.config.ts', '--outDir', tempOut, '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: ['ignore', 2, 2],
      shell: process.platform === 'win32',
      env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
    },
  );
  if (r.status === 0) {
    // Each file moves in whole (a rename); index.cjs last, so a newer index.cjs never meets older chunks.
    const moveAll = (from, to) => {
      mkdirSync(to, { recursive: true });
      for (const d of readdirSync(from, { withFileTypes: true })) {
        if (d.name === 'index.cjs' && from === join(root, tempOut)) continue;
        if (d.isDirectory()) moveAll(join(from, d.name), join(to, d.name));
        else renameSync(join(from, d.name), join(to, d.name));
      }
    };
    moveAll(join(root, tempOut), join(root, 'out', 'cli'));
    renameSync(join(root, tempOut, 'index.cjs'), built);
  }
  rmSync(join(root, tempOut), { recursive: true, force: true });
  if (r.status !== 0) {
    process.stderr.write(`canopy: building the CLI failed (${r.error ? r.error.message : `exit ${r.status}`}).\n`);
    process.exit(1);
  }
}

if (needsBuild()) build();

// `serve` also needs the built renderer: build the app once when it is missing.
if (
  process.argv[2] === 'serve' &&
  existsSync(join(root, 'renderer')) &&
  !existsSync(join(root, 'out', 'renderer', 'index.html'))
) {
  process.stderr.write('canopy: building the app (first run)…\n');
  const r = spawnSync('npx', ['electron-vite', 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: ['ignore', 2, 2],
    shell: process.platform === 'win32',
  });
  if (r.status !== 0) {
    process.stderr.write('canopy: building the app failed; run `npm run build` to see why.\n');
    process.exit(1);
  }
}

const { runCli, commands } = require(built);
// `canopy FILE…` (files or folders, no command): open the app on them, as `npm start -- FILE…` does.
const first = process.argv[2];
if (
  first !== undefined &&
  !first.startsWith('-') &&
  !Object.hasOwn(commands, first) &&
  first !== 'help' &&
  existsSync(first)
) {
  const r = spawnSync(process.execPath, [join(root, 'bin', 'start.cjs'), ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  process.exit(r.status ?? 1);
}
runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr }).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`canopy: ${err && err.stack ? err.stack : String(err)}\n`);
    process.exitCode = 1;
  },
);
