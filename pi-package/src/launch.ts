/**
 * What `/canopy` opens and how: a deep link (`#/session/<id>?entry=<id>` or `#/search?q=…`, the
 * renderer's hash routes) handed to the desktop app, whose single-instance lock passes it to a
 * running window (or starts one). Where there is no app: serve-launch.ts.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type OpenTarget =
  | { kind: 'session'; sessionId: string; entryId: string | null }
  | { kind: 'search'; query: string }
  /** Canopy itself (this session is not written yet). */
  | { kind: 'app' };

export interface OpenRequest {
  target: OpenTarget;
  /** pi's sessions root for this session (it may be set apart from the default). */
  root?: string;
}

/** Opens Canopy at a target; resolves to what it did, in words for the user. */
export interface Launcher {
  open(request: OpenRequest): Promise<string>;
}

export function deepLink(target: OpenTarget): string {
  if (target.kind === 'search') return `#/search?q=${encodeURIComponent(target.query)}`;
  if (target.kind === 'app') return '';
  const base = `#/session/${encodeURIComponent(target.sessionId)}`;
  return target.entryId ? `${base}?entry=${encodeURIComponent(target.entryId)}` : base;
}

export function describeTarget(target: OpenTarget): string {
  if (target.kind === 'search') return `search for ${JSON.stringify(target.query)}`;
  if (target.kind === 'app') return 'the session list';
  return `session ${target.sessionId}${target.entryId ? ` at entry ${target.entryId}` : ''}`;
}

/** Starts a program detached from pi (it outlives pi); rejects when it cannot be started. */
export function startDetached(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { detached: true, stdio: 'ignore', windowsHide: true });
    child.once('error', (err) => reject(new Error(`cannot start ${command}: ${err.message}`)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}

type Env = Record<string, string | undefined>;

/**
 * The desktop app: `$CANOPY_APP`, else Electron with this Canopy checkout when its binary is there;
 * none with `CANOPY_OPEN=serve` (a browser is wanted, e.g. over SSH).
 */
export function appCommand(env: Env = process.env): { command: string; prefix: string[] } | null {
  if (env.CANOPY_OPEN === 'serve') return null;
  if (env.CANOPY_APP) return { command: env.CANOPY_APP, prefix: [] };
  const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const electron = join(repo, 'node_modules', 'electron');
  try {
    const binary = join(electron, 'dist', readFileSync(join(electron, 'path.txt'), 'utf8').trim());
    if (existsSync(binary) && existsSync(join(repo, 'out', 'main', 'index.js')))
      return { command: binary, prefix: [repo] };
  } catch {
    // No Electron in this checkout (or no checkout): serve to a browser instead.
  }
  return null;
}

export function appLauncher(app: { command: string; prefix: string[] }): Launcher {
  return {
    async open({ target, root }) {
      const link = deepLink(target);
      await startDetached(app.command, [
        ...app.prefix,
        ...(link ? [`--link=${link}`] : []),
        ...(root ? [`--root=${root}`] : []),
      ]);
      return `Canopy: opening ${describeTarget(target)}`;
    },
  };
}
