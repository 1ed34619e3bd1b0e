/**
 * The OS trash: `trash` (sindresorhus) moves the files. On Linux the freedesktop trash is a
 * folder Canopy can read (storage/freedesktop-trash.ts), so it records where each file went and
 * can put it back; elsewhere (macOS, Windows) a file is restored from the OS's own trash.
 */
import { findTrashed, homeTrashDir } from '../storage/freedesktop-trash';

/** Moves the files to the OS trash in one call. */
export async function moveToTrash(paths: readonly string[]): Promise<void> {
  // ESM-only: imported when first used, from node_modules (its macOS/Windows helpers sit beside it).
  const { default: trash } = await import('trash');
  await trash([...paths], { glob: false });
}

/** Where the OS trash put `path`, when Canopy can read that trash (Linux); else null. */
export async function whereTrashed(
  path: string,
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform = process.platform,
): Promise<string | null> {
  return platform === 'linux' ? findTrashed(path, homeTrashDir(env)) : null;
}
