/**
 * Where Canopy keeps what it must not lose (the share ledger, the user's redaction list):
 * `$CANOPY_DATA_DIR`, else the OS data folder. Never inside a session root.
 */
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { isInside } from './cache-dir';

type Env = Record<string, string | undefined>;

/** The OS data folder for Canopy (not created). */
export function osDataDir(
  env: Env = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Canopy');
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'Canopy');
  const xdg = env.XDG_DATA_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, '.local', 'share'), 'canopy');
}

/** The data folder to use with these roots, created. Throws when it lies inside a session root. */
export function canopyDataDir(roots: readonly string[], env: Env = process.env): string {
  const dir = env.CANOPY_DATA_DIR ? resolve(env.CANOPY_DATA_DIR) : osDataDir(env);
  const root = roots.find((r) => isInside(dir, r));
  if (root)
    throw new Error(
      `the data folder ${dir} is inside the session root ${root}; set CANOPY_DATA_DIR to a folder outside it`,
    );
  mkdirSync(dir, { recursive: true });
  return dir;
}
