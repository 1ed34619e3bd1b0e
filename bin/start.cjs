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
  // electron's index.js throws when its binary was never downloaded; its message is one line.
  reason = String((err && err.message) || err).split('\n')[0];
}

const passThrough = process.argv.slice(2).filter((a) => a !== '--rebuild');
let child;
if (electronPath && existsSync(electronPath)) {
  child = spawn(electronPath, [root, ...passThrough], { stdio: 'inherit' });
} else {
  // Two lines in all: this one, then serve's "serving …" and "Open <url>" (no stack trace).
  console.error(`Canopy: no app window here (the Electron binary is ${reason ? 'missing' : 'not installed'}); serving the app to a browser instead.`);
  // An IPC channel: when this process dies, serve sees it disconnect and stops too.
  child = spawn(process.execPath, [join(root, 'bin', 'canopy.cjs'), 'serve', ...passThrough], { stdio: ['inherit', 'inherit', 'inherit', 'ipc'] });
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
