/**
 * FIFOs for the "only regular files are opened" tests. A blocking open(2) of a FIFO waits for a
 * writer: `unblockLater` starts one after `ms`, so code that still blocks comes back (after the
 * writer came, which the test checks) instead of hanging the test process forever.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';

export function mkfifo(path: string): void {
  execFileSync('mkfifo', [path]);
}

const started: ChildProcess[] = [];

/**
 * Opens `fifo` for writing after `ms` (gives up 10 s later); stopped by `stopWriters`. `came()` says
 * whether the writer has come yet (a file it touches first, so a blocked event loop cannot hide it):
 * an answer given before it came was not waiting for it.
 */
export function unblockLater(fifo: string, ms: number): { came: () => boolean } {
  const mark = `${fifo}.writer-came`;
  const script = `sleep ${ms / 1000}; : > "$1"; exec 3>"$0"`;
  const child = spawn('timeout', [String(ms / 1000 + 10), 'sh', '-c', script, fifo, mark], { stdio: 'ignore' });
  started.push(child);
  return { came: () => existsSync(mark) };
}

export function stopWriters(): void {
  for (const c of started.splice(0)) if (c.exitCode === null && c.pid) process.kill(c.pid);
}
