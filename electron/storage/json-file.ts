/**
 * Small JSON files Canopy keeps for itself (the secret radar's cache, the share ledger), always in
 * its own cache or data folder: read whole, replaced whole (temp file + rename, so a reader sees
 * the old or the new file), or appended a line at a time.
 */
import { appendFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errnoCode } from './stat';

/** The parsed file, or undefined when it does not exist or is not JSON (a cache is rebuilt then). */
export async function readJsonFile(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch (err) {
    if (errnoCode(err) === 'ENOENT' || err instanceof SyntaxError) return undefined;
    throw err;
  }
}

export async function replaceJsonFile(path: string, value: unknown): Promise<void> {
  await replaceTextFile(path, JSON.stringify(value));
}

/** A file of Canopy's own replaced whole (its folder created): a reader sees the old or the new text. */
export async function replaceTextFile(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, path);
}

/** Appends one line (a JSON object) to a JSONL file, creating it and its folder. */
export async function appendJsonLine(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await appendFile(path, `${JSON.stringify(value)}\n`, { mode: 0o600 });
}

/** The lines of a JSONL file (none when it does not exist). */
export async function readTextLines(path: string): Promise<string[]> {
  try {
    return (await readFile(path, 'utf8')).split('\n').filter((l) => l.trim() !== '');
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return [];
    throw err;
  }
}
