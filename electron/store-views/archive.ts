/**
 * Archive stale fork families: whole families only (a family is stale when no member was written for
 * N days, checked again just before each move), moved to a folder outside every root with a
 * manifest (original path, size, SHA-256); restore moves them back and checks the bytes. Nothing is
 * ever edited in place, and no file is overwritten (storage/move-file.ts).
 */
import { createHash } from 'node:crypto';
import { basename, join, resolve } from 'node:path';
import { isInside } from '../storage/cache-dir';
import { createNewFile } from '../storage/create';
import { makeDir, moveFileNoClobber } from '../storage/move-file';
import { readRange } from '../storage/read';
import { statPath } from '../storage/stat';
import { storageReport } from './storage-report';

export interface ArchivePlanFamily {
  family: string;
  lastWrite: string;
  bytes: number;
  sessions: { id: string; path: string; bytes: number }[];
}

export interface ArchivePlan {
  staleDays: number;
  families: ArchivePlanFamily[];
  bytes: number;
}

interface ManifestFile {
  original: string;
  stored: string;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  version: 1;
  family: string;
  archivedAt: string;
  files: ManifestFile[];
}

export const MANIFEST = 'canopy-archive.json';
const HASH_CHUNK = 4 * 1024 * 1024;

async function sha256(path: string, size: number): Promise<string> {
  const h = createHash('sha256');
  for (let at = 0; at < size; at += HASH_CHUNK) h.update(await readRange(path, at, Math.min(HASH_CHUNK, size - at)));
  return h.digest('hex');
}

/** The stale families under the roots (the preview: what goes, the bytes freed). */
export async function planArchive(
  roots: readonly string[],
  staleDays: number,
  nowMs = Date.now(),
): Promise<ArchivePlan> {
  const r = await storageReport(roots, { staleDays, nowMs, top: 0 });
  const families = await Promise.all(
    r.stale.map(async (f) => ({
      family: f.family,
      lastWrite: new Date(f.lastWriteMs).toISOString(),
      bytes: f.bytes,
      sessions: await Promise.all(
        f.sessions.map(async (s) => ({ id: s.id, path: s.path, bytes: (await statPath(s.path)).size })),
      ),
    })),
  );
  return { staleDays, families, bytes: families.reduce((n, f) => n + f.bytes, 0) };
}

export interface ArchiveOutcome {
  family: string;
  /** The family's folder in the archive (null: not archived). */
  folder: string | null;
  bytes: number;
  skipped?: string;
}

/** Refuses an archive folder inside a root (Canopy writes nothing under a root). */
export function checkArchiveDir(dir: string, roots: readonly string[]): string {
  const out = resolve(dir);
  const root = roots.find((r) => isInside(out, r) || isInside(r, out));
  if (root) throw new Error(`the archive folder ${out} must lie outside the session root ${root}`);
  return out;
}

/** Moves each planned family into `<archiveDir>/<family>-<time>/`, re-checking staleness first. */
export async function archiveFamilies(
  plan: ArchivePlan,
  archiveDir: string,
  roots: readonly string[],
  nowMs = Date.now(),
): Promise<ArchiveOutcome[]> {
  const dir = checkArchiveDir(archiveDir, roots);
  const limit = nowMs - plan.staleDays * 86_400_000;
  const out: ArchiveOutcome[] = [];
  for (const f of plan.families) {
    // Written since the preview (or being written now): the whole family stays.
    const facts = await Promise.all(f.sessions.map((s) => statPath(s.path).catch(() => null)));
    const changed = facts.findIndex((st, i) => !st || st.mtimeMs >= limit || st.size !== f.sessions[i]!.bytes);
    if (changed >= 0) {
      out.push({
        family: f.family,
        folder: null,
        bytes: 0,
        skipped: `${f.sessions[changed]!.path} changed since the preview`,
      });
      continue;
    }
    const stamp = new Date(nowMs).toISOString().replace(/[:.]/g, '-');
    const folder = join(dir, `${f.family.replace(/[^\w.-]/g, '_')}-${stamp}`);
    await makeDir(folder);
    const files: ManifestFile[] = [];
    for (const [i, s] of f.sessions.entries()) {
      files.push({
        original: s.path,
        stored: `${i}-${basename(s.path)}`,
        bytes: s.bytes,
        sha256: await sha256(s.path, s.bytes),
      });
    }
    const manifest: Manifest = { version: 1, family: f.family, archivedAt: new Date(nowMs).toISOString(), files };
    // The manifest first: whatever happens next, the folder says where each file came from.
    await createNewFile(folder, MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
    for (const file of files) await moveFileNoClobber(file.original, join(folder, file.stored));
    out.push({ family: f.family, folder, bytes: f.bytes });
  }
  return out;
}

export interface RestoreOutcome {
  restored: string[];
  bytes: number;
}

/** Moves an archived family back to where it was; checks every file's bytes against the manifest. */
export async function restoreArchive(folder: string): Promise<RestoreOutcome> {
  let manifest: Manifest;
  try {
    // Small and pretty-printed: read whole.
    manifest = JSON.parse((await readRange(join(folder, MANIFEST), 0, 64 * 1024 * 1024)).toString('utf8')) as Manifest;
  } catch {
    throw new Error(`${folder} holds no readable ${MANIFEST}`);
  }
  if (manifest.version !== 1 || !Array.isArray(manifest.files))
    throw new Error(`${MANIFEST} in ${folder} is not one Canopy wrote`);
  for (const f of manifest.files) {
    const stored = join(folder, basename(f.stored));
    if ((await sha256(stored, f.bytes)) !== f.sha256) throw new Error(`${stored} is not the file that was archived`);
  }
  const restored: string[] = [];
  let bytes = 0;
  for (const f of manifest.files) {
    await moveFileNoClobber(join(folder, basename(f.stored)), f.original);
    restored.push(f.original);
    bytes += f.bytes;
  }
  return { restored, bytes };
}
