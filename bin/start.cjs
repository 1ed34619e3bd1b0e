#!/usr/bin/env node
// `npm start`: build what is missing, then open the Electron app. Where the Electron binary cannot
// be had (it is downloaded on first run; some machines have no route to it), say so and start
// `canopy serve` instead, which serves the same app to a browser on 127.0.0.1.
const { spawnSync, spawn } = require('node:child_process');
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const built = ['out/main/index.js', 'out/preload/index.js', 'out/renderer/index.html', 'out/cli/index.cjs'].every((f) =>
  existsSync(join(root, f)),
);
if (!built || process.argv.includes('--rebuild')) {
  const b = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}

let electronPath = null;
let reason = '';
try {
  electronPath = require('electron');
} catch (err) {
  reason = err.message;
}

const passThrough = process.argv.slice(2).filter((a) => a !== '--rebuild');
if (electronPath && existsSync(electronPath)) {
  const child = spawn(electronPath, [root, ...passThrough], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  console.error(`Canopy: the Electron binary is not available (${reason || 'not installed'}).`);
  console.error('Starting `canopy serve` instead: open the printed URL in a browser.');
  const child = spawn(process.execPath, [join(root, 'bin', 'canopy.cjs'), 'serve', ...passThrough], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
}
