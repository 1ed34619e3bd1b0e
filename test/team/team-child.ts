/** The built CLI as a child process (bin/canopy.cjs builds out/cli first when it is stale). */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const BIN = join(__dirname, '../../bin/canopy.cjs');

/** Builds the CLI if needed (call from beforeAll: the first build takes a while on a loaded machine). */
export function ensureBuiltCli(): void {
  const r = spawnSync(process.execPath, [BIN, 'help'], { encoding: 'utf8', timeout: 600_000 });
  if (r.status !== 0) throw new Error(`the CLI did not build: ${r.stderr}`);
}

export interface Child {
  proc: ChildProcess;
  out: () => string;
  err: () => string;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function canopyChild(args: string[], env: Record<string, string>): Child {
  const proc = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: 'pipe' });
  let out = '';
  let err = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('close', (code, signal) => resolve({ code, signal })),
  );
  return { proc, out: () => out, err: () => err, done };
}

/** Waits until `check` holds, polling; fails after `limitMs` (a ceiling only a hang reaches). */
export async function until(check: () => Promise<boolean> | boolean, limitMs = 60_000): Promise<number> {
  const t0 = performance.now();
  while (!(await check())) {
    if (performance.now() - t0 > limitMs) throw new Error(`not reached in ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return performance.now() - t0;
}
