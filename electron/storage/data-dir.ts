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

/** Canopy's data folder cannot be used (a file, read-only, inside a root): one line for the user. */
export class DataFolderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataFolderError';
  }
}

/** The data folder to use with these roots, created. Throws DataFolderError when it cannot be used. */
export function canopyDataDir(roots: readonly string[], env: Env = process.env): string {
  const dir = env.CANOPY_DATA_DIR ? resolve(env.CANOPY_DATA_DIR) : osDataDir(env);
  const root = roots.find((r) => isInside(dir, r));
  if (root)
    throw new DataFolderError(
      `the data folder ${dir} is inside the session root ${root}; set CANOPY_DATA_DIR to a folder outside it`,
    );
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new DataFolderError(`Canopy's data folder ${dir} cannot be used: ${(err as Error).message}`);
  }
  return dir;
}
