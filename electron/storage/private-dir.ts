/** Canopy's own scratch folders (uploaded sessions): new, private (0700), under the OS temp dir. */
import { lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
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

/** A folder of this process: `<base><pid>-XXXXXX` in the OS temp dir (swept by sweepDeadOwners once the pid is gone). */
export function makeProcessDir(base: string, parent: string = tmpdir()): string {
  return makePrivateDir(`${base}${process.pid}-`, parent);
}

/** True while a process with this id exists. */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes this user's folders made by makeProcessDir(`base`) whose process is gone (a serve ended
 * by SIGTERM or a crash cleans nothing up itself); returns how many.
 */
export function sweepDeadOwners(base: string, parent: string = tmpdir()): number {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return 0;
  }
  const uid = process.getuid?.();
  let swept = 0;
  for (const name of names) {
    if (!name.startsWith(base)) continue;
    const pid = Number(/^(\d+)-/.exec(name.slice(base.length))?.[1]);
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || pidAlive(pid)) continue;
    const path = join(parent, name);
    try {
      const facts = lstatSync(path);
      if (!facts.isDirectory() || (uid !== undefined && facts.uid !== uid)) continue;
      removeTree(path);
      swept++;
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
  return swept;
}
