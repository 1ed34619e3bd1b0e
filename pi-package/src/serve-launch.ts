/**
 * `/canopy` where there is no desktop app: `canopy serve` (127.0.0.1, a random token) started once
 * per pi process and kept while pi runs, and the browser sent to its URL plus the deep link.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { canopyCommand } from './canopy-cli';
import { deepLink, describeTarget, startDetached, type Launcher } from './launch';

type Env = Record<string, string | undefined>;

/** The first run of a checkout builds the app before it serves. */
const START_TIMEOUT_MS = 180_000;

/** The browser: `$CANOPY_BROWSER`, `$BROWSER`, else the platform's opener. */
export function browserCommand(env: Env = process.env): { command: string; prefix: string[] } {
  const chosen = env.CANOPY_BROWSER || env.BROWSER;
  if (chosen) return { command: chosen, prefix: [] };
  if (process.platform === 'darwin') return { command: 'open', prefix: [] };
  if (process.platform === 'win32') return { command: 'cmd', prefix: ['/c', 'start', '""'] };
  return { command: 'xdg-open', prefix: [] };
}

/** Starts `canopy serve` and resolves to the URL it prints (with its token). */
function startServe(env: Env, root: string | undefined): Promise<{ url: string; child: ChildProcess }> {
  const { command, prefix } = canopyCommand(env);
  const child = spawn(command, [...prefix, 'serve', ...(root ? ['--root', root] : [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
  });
  // Serve stops with pi: it is this pi's viewer, not a daemon.
  const stop = () => child.kill();
  process.once('exit', stop);
  child.once('exit', () => process.off('exit', stop));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => fail(new Error('canopy serve did not start in time')), START_TIMEOUT_MS);
    const fail = (e: Error) => {
      clearTimeout(timer);
      child.kill();
      reject(e);
    };
    child.stderr!.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-2000)));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^Open (http:\/\/127\.0\.0\.1:\d+\/\S*)$/m.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.stdout!.removeAllListeners('data');
      child.stdout!.resume();
      child.unref();
      resolve({ url: m[1]!, child });
    });
    child.once('error', (e) => fail(new Error(`cannot start canopy serve: ${e.message}`)));
    child.once('exit', (code) => fail(new Error(`canopy serve exited (${code ?? 'signal'}): ${err.trim()}`)));
  });
}

export function serveLauncher(env: Env = process.env): Launcher {
  let serving: Promise<{ url: string; child: ChildProcess }> | null = null;
  return {
    async open({ target, root }) {
      const alive = serving && (await serving.catch(() => null));
      if (!alive || alive.child.exitCode !== null || alive.child.signalCode !== null) serving = startServe(env, root);
      const { url } = await serving!;
      const browser = browserCommand(env);
      await startDetached(browser.command, [...browser.prefix, `${url}${deepLink(target)}`]);
      return `Canopy: opening ${describeTarget(target)} in the browser (canopy serve on ${new URL(url).origin})`;
    },
  };
}
