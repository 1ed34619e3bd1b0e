/**
 * Where Canopy keeps what it may always throw away (the search index): `$CANOPY_CACHE_DIR`, else
 * the OS cache folder. Never inside a session root: such a folder is refused for the OS default.
 */
import { lstatSync, mkdirSync, realpathSync } from 'node:fs';
import { homedir, tmpdir, userInfo } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

type Env = Record<string, string | undefined>;

/** The OS cache folder for Canopy (not created). */
export function osCacheDir(
  env: Env = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'Canopy');
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'Canopy');
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, '.cache'), 'canopy');
}

/** The path with symlinks resolved as far as it exists (the rest appended as written). */
function realish(path: string): string {
  const abs = resolve(path);
  try {
    return realpathSync(abs);
  } catch {
    const parent = dirname(abs);
    return parent === abs ? abs : join(realish(parent), relative(parent, abs));
  }
}

export function isInside(dir: string, root: string): boolean {
  const rel = relative(realish(root), realish(dir));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

export interface CacheDir {
  dir: string;
  /** Why the configured folder was not used (it lies inside a session root). */
  relocatedFrom?: string;
}

/**
 * The cache folder to use for these roots, created. Throws when both `$CANOPY_CACHE_DIR` and the
 * OS default lie inside a session root.
 */
export function searchCacheDir(roots: readonly string[], env: Env = process.env): CacheDir {
  const inRoot = (dir: string): string | undefined => roots.find((r) => isInside(dir, r));
  const fallback = osCacheDir(env);
  const configured = env.CANOPY_CACHE_DIR ? resolve(env.CANOPY_CACHE_DIR) : undefined;
  let out: CacheDir = { dir: configured ?? fallback };
  if (configured && inRoot(configured)) out = { dir: fallback, relocatedFrom: configured };
  const root = inRoot(out.dir);
  if (root)
    throw new Error(
      `the cache folder ${out.dir} is inside the session root ${root}; set CANOPY_CACHE_DIR to a folder outside it`,
    );
  mkdirSync(out.dir, { recursive: true });
  return out;
}

/**
 * For what may always be rebuilt (the search index, the radar's cache): the cache folder, or, when it
 * lies inside a root or an opened folder (`canopy serve ~`), a private folder in the OS temp folder.
 */
export function throwawayCacheDir(roots: readonly string[], env: Env = process.env): CacheDir {
  try {
    return searchCacheDir(roots, env);
  } catch (err) {
    const temp = join(tmpdir(), `canopy-cache-${userInfo().username}`);
    if (roots.some((r) => isInside(temp, r))) throw err;
    mkdirSync(temp, { recursive: true, mode: 0o700 });
    // In a shared temp folder another user could have made it first (or a link to elsewhere).
    const st = lstatSync(temp);
    const uid = process.getuid?.();
    if (!st.isDirectory() || (uid !== undefined && st.uid !== uid))
      throw new Error(`${(err as Error).message}; the temp fallback ${temp} is not a folder of this user`);
    return { dir: temp, relocatedFrom: env.CANOPY_CACHE_DIR ? resolve(env.CANOPY_CACHE_DIR) : osCacheDir(env) };
  }
}
