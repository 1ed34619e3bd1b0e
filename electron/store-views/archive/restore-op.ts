/**
 * Restoring an archived family, journaled (run.ts), after checking everything first: the manifest
 * sends each file only inside a known root (manifest-rules.ts), no target exists, every stored file
 * is there with its recorded hash. Then the files go back (never over a name), and the folder goes.
 * And finishing (`--resume`) whatever archive or restore a crash cut.
 */
import { basename, dirname, join, resolve } from 'node:path';
import { hashPath, lstatOrNull } from './storage/file-ops';
import { ArchiveError, Journal, readPendingJournal, takeLock } from './storage/journal';
import { entryFacts, makeDirs, readText } from './storage/paths';
import { familyState, recoveryOf, type JournalRecord, type PlannedFile } from './journal-rules';
import { checkManifest, MANIFEST, type Manifest } from './manifest-rules';
import { forward, putback, rollback, type FamilyOutcome, type RunContext } from './run';

export interface RestoreRequest {
  folder: string;
  /** The session roots Canopy knows: files go back only inside these. */
  roots: readonly string[];
  dataDir: string;
}

async function readManifest(folder: string, roots: readonly string[]): Promise<Manifest> {
  let value: unknown;
  try {
    value = JSON.parse(await readText(join(folder, MANIFEST)));
  } catch {
    throw new ArchiveError('refused', `${folder} holds no readable ${MANIFEST}`);
  }
  const m = checkManifest(value, roots);
  if (typeof m === 'string') throw new ArchiveError('refused', `the manifest in ${folder} ${m}; nothing was restored`);
  return m;
}

/** Every check before a file moves; the planned moves. */
async function precheck(folder: string, m: Manifest): Promise<PlannedFile[]> {
  const files: PlannedFile[] = [];
  for (const f of m.files) {
    if (await lstatOrNull(f.original))
      throw new ArchiveError(
        'refused',
        `${f.original} already exists; nothing was restored (move it away, then restore again)`,
      );
    const stored = join(folder, f.stored);
    const st = await entryFacts(stored);
    if (!st) throw new ArchiveError('refused', `${stored} is missing; nothing was restored`);
    if ((st.kind === 'symlink') !== (f.symlink !== undefined) || st.target !== f.symlink)
      throw new ArchiveError('refused', `${stored} is not the link that was archived; nothing was restored`);
    if ((st.kind === 'file' && st.size !== f.bytes) || (await hashPath(stored)) !== f.sha256)
      throw new ArchiveError('refused', `${stored} is not the file that was archived; nothing was restored`);
    files.push({
      from: stored,
      to: f.original,
      bytes: f.bytes,
      mtimeMs: st.mtimeMs,
      sha256: f.sha256,
      ...(f.symlink !== undefined ? { symlink: f.symlink } : {}),
    });
  }
  return files;
}

/** Moves an archived family back where it was. */
export async function restoreArchive(req: RestoreRequest): Promise<FamilyOutcome> {
  const folder = resolve(req.folder);
  const m = await readManifest(folder, req.roots);
  const lock = await takeLock(req.dataDir);
  try {
    const files = await precheck(folder, m);
    const journal = await Journal.begin(req.dataDir, 'restore');
    const record: JournalRecord = {
      op: 'family',
      key: basename(folder),
      family: m.family,
      folder,
      roots: m.roots ?? [],
      files,
    };
    try {
      await journal.write(record);
      for (const f of files) await makeDirs(dirname(f.to));
      const out = await forward({ journal, kind: 'restore' }, familyState(record));
      await journal.finish();
      if (!out.moved) throw new ArchiveError('refused', `${out.skipped ?? 'not restored'}; nothing was restored`);
      return out;
    } catch (err) {
      await journal.close();
      throw err instanceof ArchiveError
        ? err
        : new ArchiveError('io', `${(err as Error).message}; run \`canopy archive --resume\` to finish`);
    }
  } finally {
    await lock.release();
  }
}

/** Finishes or rolls back an interrupted run; null when there was none. */
export async function resumeArchive(dataDir: string): Promise<FamilyOutcome[] | null> {
  // Most starts find no journal: the lock is not taken then (a running archive keeps its own).
  if (!(await readPendingJournal(dataDir))) return null;
  const lock = await takeLock(dataDir);
  try {
    const state = await readPendingJournal(dataDir);
    if (!state) return null;
    const journal = await Journal.resume(dataDir);
    const out: FamilyOutcome[] = [];
    try {
      for (const f of state.families) {
        if (!state.kind) break;
        const ctx: RunContext = { journal, kind: state.kind };
        const r = recoveryOf(state.kind, f);
        if (r.action === 'rollback') out.push(await rollback(ctx, f, 'the archive was cut before this family moved'));
        else if (r.action === 'putback') out.push(await putback(ctx, f, r.reason));
        else if (r.action === 'forward') {
          for (const file of f.files) await makeDirs(dirname(file.to));
          out.push(await forward(ctx, f));
        }
      }
    } catch (err) {
      await journal.close();
      throw new ArchiveError('io', `could not finish the interrupted run: ${(err as Error).message}`);
    }
    await journal.finish();
    return out;
  } finally {
    await lock.release();
  }
}
