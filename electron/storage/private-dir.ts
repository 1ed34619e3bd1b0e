/** Canopy's own scratch folders (uploaded sessions): new, private (0700), under the OS temp dir. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realPathSync } from './stat';

/** A new private folder `<parent>/<prefix>XXXXXX` (default parent: the OS temp dir); its real path. */
export function makePrivateDir(prefix: string, parent: string = tmpdir()): string {
  return realPathSync(mkdtempSync(join(parent, prefix)));
}

export function removeTree(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
