import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

const made: string[] = [];

/** A fresh directory under the OS temp dir, removed after the current test. */
export async function tempDir(prefix = 'canopy-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

afterEach(async () => {
  // chmod'ed-away files are fine: rm runs as the owner of the parent directory.
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});
