/**
 * How the package reaches Canopy: the `canopy` command in a child process (its --json output is
 * the contract). pi's process never loads Canopy's code or its native SQLite addon.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface CanopyResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `canopy ARGS…` (pi.exec in the extension; a test may pass its own). */
export type RunCanopy = (args: string[], signal?: AbortSignal) => Promise<CanopyResult>;

export type Exec = (
  command: string,
  args: string[],
  options: { signal?: AbortSignal; timeout?: number; maxBuffer?: number },
) => Promise<CanopyResult>;

type Env = Record<string, string | undefined>;

/** The repository's `bin/canopy.cjs` when the package is loaded from a Canopy checkout. */
function checkoutBin(): string | null {
  const bin = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'canopy.cjs');
  return existsSync(bin) ? bin : null;
}

/**
 * The command line that runs Canopy's CLI: `$CANOPY_CLI`, else the checkout's bin/canopy.cjs,
 * else `canopy` on PATH. A script runs under Node (pi itself may be a compiled binary).
 */
export function canopyCommand(env: Env = process.env): { command: string; prefix: string[] } {
  const cli = env.CANOPY_CLI || checkoutBin();
  if (!cli) return { command: 'canopy', prefix: [] };
  if (!/\.(c|m)?js$/.test(cli)) return { command: cli, prefix: [] };
  const node = /^node(\.exe)?$/i.test(basename(process.execPath)) ? process.execPath : 'node';
  return { command: node, prefix: [cli] };
}

/** Output is bounded by the tools' limits; this only stops a runaway. */
const MAX_OUTPUT = 16 * 1024 * 1024;
const TIMEOUT_MS = 120_000;

export function canopyRunner(exec: Exec, env: Env = process.env): RunCanopy {
  const { command, prefix } = canopyCommand(env);
  return (args, signal) =>
    exec(command, [...prefix, ...args], {
      ...(signal ? { signal } : {}),
      timeout: TIMEOUT_MS,
      maxBuffer: MAX_OUTPUT,
    });
}

/** `canopy`'s stdout as JSON lines (one object per line). */
export function jsonLines<T>(stdout: string): T[] {
  return stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}
