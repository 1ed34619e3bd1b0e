/**
 * The JSON files of a private folder (0700, owned by this user): what running pi processes with
 * Canopy's package announce (pi-package/src/handback-channel.ts). A folder anyone else can write
 * to is not read at all: its announcements could point Canopy anywhere.
 */
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

const MAX_BYTES = 16 * 1024;

export async function privateJsonFiles(dir: string): Promise<unknown[]> {
  try {
    const s = await lstat(dir);
    const uid = process.getuid?.();
    if (!s.isDirectory() || (uid !== undefined && s.uid !== uid)) return [];
    if (process.platform !== 'win32' && (s.mode & 0o077) !== 0) return [];
    const out: unknown[] = [];
    for (const name of await readdir(dir)) {
      if (!name.endsWith('.json')) continue;
      try {
        const text = await readFile(join(dir, name), 'utf8');
        if (text.length <= MAX_BYTES) out.push(JSON.parse(text));
      } catch {
        // Gone meanwhile (its pi ended) or half-written: not an announcement.
      }
    }
    return out;
  } catch {
    return [];
  }
}
