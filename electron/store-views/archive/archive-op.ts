/**
 * Archiving planned families, journaled (run.ts): each family gets its own new folder in the
 * destination, its files placed there and verified, its manifest written, and only then its sources
 * removed. A family with a member written recently, or during the move, stays whole where it was.
 */
import { createHash } from 'node:crypto';
import { basename, join, resolve } from 'node:path';
import { mapLimit } from '../../repo/map-limit';
import { isInside } from '../../storage/cache-dir';
import { crashPoint } from './crash-points';
import { ArchiveError, Journal, takeLock } from './storage/journal';
import { entryFacts, makeNewDir, writableDir, writeDurably } from './storage/paths';
import {
  familyFolderName,
  familyState,
  storedName,
  type FamilyState,
  type JournalRecord,
  type PlannedFile,
} from './journal-rules';
import { MANIFEST, type Manifest } from './manifest-rules';
import { forward, rollback, type FamilyOutcome, type RunContext } from './run';

export interface ArchiveRequest {
  families: { family: string; sessions: { path: string; bytes: number }[] }[];
  staleDays: number;
  archiveDir: string;
  /** The session roots (and opened folders): the destination lies outside all of them. */
  roots: readonly string[];
  /** Canopy's data folder: the journal and the lock. */
  dataDir: string;
  nowMs?: number;
}

const FAMILIES_AT_ONCE = 8;

/** A file written this recently is never archived, whatever `staleDays` says (pi may be mid-turn). */
const MIN_QUIET_MS = 60_000;

/** The destination, refused in one line when it is inside a root (or holds one). */
export function destinationOutside(dir: string, outside: readonly string[]): string {
  const out = resolve(dir);
  const root = outside.find((r) => isInside(out, r) || isInside(r, out));
  if (root) throw new ArchiveError('refused', `the archive folder ${out} must lie outside the session root ${root}`);
  return out;
}

/** The destination folder, created; refused in one line when it is inside a root, a file or not writable. */
export async function checkDestination(dir: string, outside: readonly string[]): Promise<string> {
  const out = destinationOutside(dir, outside);
  const code = await writableDir(out);
  if (code === 'ENOTDIR' || code === 'EEXIST') throw new ArchiveError('refused', `${out} is not a folder`);
  if (code === 'EACCES' || code === 'EROFS' || code === 'EPERM')
    throw new ArchiveError('refused', `cannot write in ${out} (read-only or not yours)`);
  if (code !== null) throw new ArchiveError('io', `cannot use ${out} as the archive folder (${code})`);
  return out;
}

/** Moves each family whole (or not at all) into its own folder under `archiveDir`. */
export async function archiveFamilies(req: ArchiveRequest): Promise<FamilyOutcome[]> {
  const dest = await checkDestination(req.archiveDir, req.roots);
  const nowMs = req.nowMs ?? Date.now();
  const limit = Math.min(nowMs - req.staleDays * 86_400_000, nowMs - MIN_QUIET_MS);
  const lock = await takeLock(req.dataDir);
  try {
    const journal = await Journal.begin(req.dataDir, 'archive');
    const ctx: RunContext = { journal, kind: 'archive', writeManifest: writeManifest(nowMs) };
    // Families are independent: a few move at once (their file steps overlap in the I/O threads).
    let fatal: unknown = null;
    const out = await mapLimit(req.families, FAMILIES_AT_ONCE, async (fam) => {
      if (fatal !== null) return skippedFamily(fam, 'not tried: the run stopped on an error');
      try {
        const planned = await planFamily(fam, dest, req.roots, limit, nowMs);
        if (typeof planned === 'string') return skippedFamily(fam, planned);
        await journal.write(planned);
        crashPoint('archive:family');
        return await moveFamily(ctx, familyState(planned));
      } catch (err) {
        fatal ??= err;
        return skippedFamily(fam, (err as Error).message);
      }
    });
    if (fatal !== null) {
      await journal.close();
      throw fatal instanceof ArchiveError
        ? fatal
        : new ArchiveError('io', `${(fatal as Error).message}; run \`canopy archive --resume\` to finish`);
    }
    await journal.finish();
    return out;
  } finally {
    await lock.release();
  }
}

async function moveFamily(ctx: RunContext, f: FamilyState): Promise<FamilyOutcome> {
  try {
    await makeNewDir(f.folder);
    return await forward(ctx, f);
  } catch (err) {
    // A failure before commit (a full disk, a read error): the family stays where it was.
    if (!f.committed) {
      const out = await rollback(ctx, f, `moving it into ${f.folder} failed: ${(err as Error).message}`);
      return { ...out, failed: true };
    }
    throw err;
  }
}

function skippedFamily(fam: ArchiveRequest['families'][number], reason: string): FamilyOutcome {
  return {
    key: '',
    family: fam.family,
    folder: '',
    moved: false,
    bytes: 0,
    skipped: reason,
    paths: fam.sessions.map((s) => s.path),
  };
}

/** The family's journal record, or why it stays (a member gone, written recently). */
async function planFamily(
  fam: ArchiveRequest['families'][number],
  dest: string,
  roots: readonly string[],
  limit: number,
  nowMs: number,
): Promise<Extract<JournalRecord, { op: 'family' }> | string> {
  const stamp = new Date(nowMs).toISOString().replace(/[:.]/g, '-');
  const paths = fam.sessions.map((s) => resolve(s.path));
  const unique = createHash('sha256').update(paths.join('\0')).digest('hex').slice(0, 10);
  const key = familyFolderName(fam.family, stamp, unique);
  const folder = join(dest, key);
  const files: PlannedFile[] = [];
  for (const [i, path] of paths.entries()) {
    const st = await entryFacts(path);
    if (!st) return `${path} is gone`;
    if (st.kind === 'other') return `${path} is not a regular file`;
    if (st.mtimeMs >= limit) return `${path} was written ${Math.round((nowMs - st.mtimeMs) / 1000)} s ago`;
    files.push({
      from: path,
      to: join(folder, storedName(i, basename(path))),
      bytes: st.size,
      mtimeMs: st.mtimeMs,
      ...(st.target !== undefined ? { symlink: st.target } : {}),
    });
  }
  const from = roots.filter((r) => paths.some((p) => isInside(p, r))).map((r) => resolve(r));
  return { op: 'family', key, family: fam.family, folder, roots: from, files };
}

/** Writes the family's manifest (temp file, fsync, rename): the folder then says where each file goes back. */
function writeManifest(nowMs: number): (f: FamilyState) => Promise<void> {
  return async (f) => {
    const manifest: Manifest = {
      version: 2,
      family: f.family,
      archivedAt: new Date(nowMs).toISOString(),
      roots: f.roots,
      files: f.files.map((file, i) => ({
        original: file.from,
        stored: basename(file.to),
        bytes: file.bytes,
        sha256: f.placed.get(i)!,
        mtimeMs: file.mtimeMs,
        ...(file.symlink !== undefined ? { symlink: file.symlink } : {}),
      })),
    };
    await writeDurably(f.folder, MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
  };
}
