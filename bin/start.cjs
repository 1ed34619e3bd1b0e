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

// require('electron') downloads a missing binary with the download's output (and stack) on our
// terminal: ask in a child with that output captured, and say in one line what failed.
let electronPath = null;
let reason = '';
const probe = spawnSync(process.execPath, ['-e', "process.stdout.write('\\n' + require('electron'))"], {
  cwd: root,
  encoding: 'utf8',
});
if (probe.status === 0) electronPath = probe.stdout.split('\n').pop();
else
  reason = /fetch failed|ENOTFOUND|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN/.test(probe.stderr)
    ? 'it cannot be downloaded here'
    : 'it is not installed';

const passThrough = process.argv.slice(2).filter((a) => a !== '--rebuild');
let child;
if (electronPath && existsSync(electronPath)) {
  child = spawn(electronPath, [root, ...passThrough], { stdio: 'inherit' });
} else {
  // Two lines in all: this one, then serve's "serving …" and "Open <url>" (no stack trace).
  console.error(
    `Canopy: no app window here (the Electron binary is missing: ${reason || 'not found'}); serving the app to a browser instead.`,
  );
  // An IPC channel: when this process dies, serve sees it disconnect and stops too.
  child = spawn(process.execPath, [join(root, 'bin', 'canopy.cjs'), 'serve', ...passThrough], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  });
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
