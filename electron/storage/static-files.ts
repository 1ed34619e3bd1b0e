/** Read-only access to the built renderer's files for `canopy serve`, confined to one folder. */
import { readFile, realpath } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';

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
