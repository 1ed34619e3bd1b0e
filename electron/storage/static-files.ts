/** Read-only access to the built renderer's files for `canopy serve`, confined to one folder. */
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';

/** The policy every page of the renderer is served under, by app:// and by `canopy serve`. */
export const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export interface StaticFile {
  body: Buffer;
  contentType: string;
}

/** Returns the file for a URL path, or null when it does not exist or lies outside `dir`. */
export async function readStaticFile(dir: string, urlPath: string): Promise<StaticFile | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const rel = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  try {
    const root = await realpath(dir);
    const file = await realpath(resolve(root, rel));
    if (file !== root && !file.startsWith(root + sep)) return null;
    const body = await readFile(file);
    return { body, contentType: TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream' };
  } catch {
    return null;
  }
}

/** The first directory that exists and (when `child` is given) contains that entry. */
export async function firstDirWith(candidates: readonly string[], child: string | null): Promise<string | null> {
  for (const dir of candidates) {
    try {
      const s = await stat(child ? join(dir, child) : dir);
      if (child ? s.isDirectory() || s.isFile() : s.isDirectory()) return dir;
    } catch {
      // try the next one
    }
  }
  return null;
}
