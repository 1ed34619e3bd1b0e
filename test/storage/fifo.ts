/**
 * FIFOs for the "only regular files are opened" tests. A blocking open(2) of a FIFO waits for a
 * writer: `unblockLater` starts one after `ms`, so code that still blocks comes back (late, and
 * the test fails on the time) instead of hanging the test process forever.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';

export function mkfifo(path: string): void {
  execFileSync('mkfifo', [path]);
}

const started: ChildProcess[] = [];

/** Opens `fifo` for writing after `ms` (gives up after 10 s); stopped by `stopWriters`. */
export function unblockLater(fifo: string, ms: number): void {
  const child = spawn('timeout', ['10', 'sh', '-c', `sleep ${ms / 1000}; exec 3>"$0"`, fifo], { stdio: 'ignore' });
  started.push(child);
}

export function stopWriters(): void {
  for (const c of started.splice(0)) if (c.exitCode === null && c.pid) process.kill(c.pid);
}
