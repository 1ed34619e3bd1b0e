/**
 * What an archive would move: the stale fork families under the roots (whole families only; a family
 * is stale when no member was written for N days). The journaled move and the restore are the
 * archive wing's (store-views/archive).
 */
import { statPath } from '../../storage/stat';
import { storageReport } from '../storage-report';
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
        f.sessions.map(async (s) => ({
          id: s.id,
          path: s.path,
          bytes: (await statPath(s.path).catch(() => null))?.size ?? 0,
        })),
      ),
    })),
  );
  return { staleDays, families, bytes: families.reduce((n, f) => n + f.bytes, 0) };
}
