/**
 * `npm start` where the Electron binary is missing (this machine: it cannot be downloaded): one line
 * saying the window cannot open here, then serve's two lines naming what it reads and the URL; no
 * stack trace. And serve dies with `npm start`'s process. Skipped where Electron is installed.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../storage/tmp';

const REPO = join(__dirname, '../..');

/** Without require('electron'), which would try to download a missing binary. */
function electronInstalled(): boolean {
  const dir = join(REPO, 'node_modules/electron');
  const pathFile = join(dir, 'path.txt');
  return existsSync(pathFile) && existsSync(join(dir, 'dist', readFileSync(pathFile, 'utf8')));
}
const HAVE_ELECTRON = electronInstalled();
if (HAVE_ELECTRON) console.warn('[skipped] start.cjs offline output: the Electron binary is installed here');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(HAVE_ELECTRON)('npm start without the Electron binary', () => {
  it('says so in one line, serve names the roots and the URL, and serve dies with its parent', async () => {
    const agent = await tempDir('canopy-start-');
    const child = spawn(process.execPath, [join(REPO, 'bin/start.cjs'), '--no-watch'], {
      env: { ...process.env, PI_CODING_AGENT_DIR: agent },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (b: Buffer) => {
        out += b.toString();
        if (/Open http\S+\n/.test(out)) resolve();
      });
      child.on('exit', (code) => reject(new Error(`start.cjs exited (${code}): ${err}`)));
    });
    const lines = (err + out).split('\n').filter(Boolean);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      /^Canopy: no app window here \(the Electron binary is missing: .+\); serving the app to a browser instead\.$/,
    );
    expect(lines[1]).toMatch(/^Canopy is serving /);
    // The agent dir has no sessions: the demo sessions are shown, and said so.
    expect(lines[1]).toContain(`no pi sessions in ${join(agent, 'sessions')}: showing the demo sessions`);
    expect(lines[2]).toMatch(/^Open http:\/\/127\.0\.0\.1:\d+\/\?token=/);
    expect(err + out).not.toMatch(/\n\s+at /);

    const serve = Number(
      execFileSync('pgrep', ['-P', String(child.pid)])
        .toString()
        .trim()
        .split('\n')[0],
    );
    expect(alive(serve)).toBe(true);
    child.kill('SIGKILL');
    // Bounded wait for the orphan to notice its parent is gone (the IPC channel closes).
    for (let i = 0; i < 100 && alive(serve); i++) await new Promise((r) => setTimeout(r, 50));
    expect(alive(serve)).toBe(false);
  }, 60_000);
});

describe('canopy serve under npx', () => {
  it('stops when the npm process that started it is killed (no IPC channel to notice it by)', async () => {
    const agent = await tempDir('canopy-npx-');
    // A stand-in for npx: a parent that starts serve with npm's environment and is then SIGKILLed.
    const launcher = `const { spawn } = require('node:child_process');
      const c = spawn(process.execPath, [${JSON.stringify(join(REPO, 'bin/canopy.cjs'))}, 'serve', '--no-watch'], { stdio: ['ignore', 'inherit', 'inherit'] });
      setInterval(() => {}, 1000);`;
    const npx = spawn(process.execPath, ['-e', launcher], {
      env: { ...process.env, PI_CODING_AGENT_DIR: agent, npm_command: 'exec' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    await new Promise<void>((resolve, reject) => {
      npx.stdout.on('data', (b: Buffer) => {
        out += b.toString();
        if (/Open http\S+\n/.test(out)) resolve();
      });
      npx.on('exit', (code) => reject(new Error(`launcher exited (${code})`)));
    });
    const serve = Number(
      execFileSync('pgrep', ['-P', String(npx.pid)])
        .toString()
        .trim()
        .split('\n')[0],
    );
    expect(alive(serve)).toBe(true);
    npx.kill('SIGKILL');
    for (let i = 0; i < 100 && alive(serve); i++) await new Promise((r) => setTimeout(r, 50));
    expect(alive(serve)).toBe(false);
  });
});
