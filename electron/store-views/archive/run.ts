/**
 * Running one family's journaled move (journal-rules.ts says what each record means): forward
 * (place each file, verified; commit; remove each source), rollback (before commit: remove what was
 * placed), put back (a source written during the move: every file returns to its path). Each is
 * safe to run again on the same family after a crash: steps already taken are recognised.
 */
import { dirname } from 'node:path';
import type { FileHandle } from './storage/paths';
import { crashPoint } from './crash-points';
import { fsyncDirs, hashPath, lstatOrNull, placeFile, removePart, removePlaced, sameInode } from './storage/file-ops';
import { entryFacts, handleIs, removeAsPlanned, removeDir } from './storage/paths';
import { staleReason, type FamilyState, type PlannedFile, type RunKind } from './journal-rules';
import type { Journal } from './storage/journal';

export interface FamilyOutcome {
  key: string;
  family: string;
  /** The family's archive folder. */
  folder: string;
  /** True when the family moved (archive: out of the root; restore: back into it). */
  moved: boolean;
  bytes: number;
  /** Why it did not move (one line). */
  skipped?: string;
  /** It did not move because a step failed (a full disk, a read error), not because it was in use. */
  failed?: boolean;
  /** The files' paths in the roots. */
  paths: string[];
}

export interface RunContext {
  journal: Journal;
  kind: RunKind;
  /** Archive: writes the family's manifest into its folder (before commit). */
  writeManifest?: (f: FamilyState) => Promise<void>;
}

const rootPath = (kind: RunKind, file: PlannedFile): string => (kind === 'archive' ? file.from : file.to);

function outcome(kind: RunKind, f: FamilyState, moved: boolean, skipped?: string): FamilyOutcome {
  return {
    key: f.key,
    family: f.family,
    folder: f.folder,
    moved,
    bytes: f.files.reduce((n, file) => n + file.bytes, 0),
    ...(skipped !== undefined ? { skipped } : {}),
    paths: f.files.map((file) => rootPath(kind, file)),
  };
}

/** Place what is not placed yet, commit, remove the sources. */
export async function forward(ctx: RunContext, f: FamilyState): Promise<FamilyOutcome> {
  const { journal, kind } = ctx;
  if (!f.committed) {
    for (const [i, file] of f.files.entries()) {
      if (f.placed.has(i)) continue;
      // Each file's staleness right before its own move (an archive only: a restore's source is ours).
      const stale = kind === 'archive' ? staleReason(file.from, file, await entryFacts(file.from)) : null;
      if (stale) return rollback(ctx, f, stale);
      crashPoint(`${kind}:place`);
      let sha: string;
      try {
        // Placed before a crash cut the run (its record not yet on disk): the same inode or the same bytes.
        const there = (await lstatOrNull(file.to)) && (await isOurs(file.to, file.from, file.sha256));
        sha = there ? await hashPath(file.to) : await placeFile(file.from, file.to, file);
      } catch (err) {
        const out = await rollback(ctx, f, `placing ${file.to} failed: ${(err as Error).message}`);
        return { ...out, failed: true };
      }
      if (file.sha256 !== undefined && sha !== file.sha256)
        return rollback(ctx, f, `${file.from} is not the file that was archived (its hash differs)`);
      await journal.write({ op: 'placed', key: f.key, index: i, sha256: sha }, false);
      f.placed.set(i, sha);
      crashPoint(`${kind}:placed`);
    }
    if (ctx.writeManifest) {
      await ctx.writeManifest(f);
      crashPoint(`${kind}:manifest`);
    }
    // Every placed name durable before the commit that lets the sources go (one fsync per folder).
    await fsyncDirs([...f.files.map((file) => dirname(file.to)), dirname(f.folder)]);
    // Once more after: a source written while the family moved keeps the family where it was.
    if (kind === 'archive') {
      for (const file of f.files) {
        const stale = staleReason(file.from, file, await entryFacts(file.from));
        if (stale) return rollback(ctx, f, stale);
      }
    }
    await journal.write({ op: 'commit', key: f.key });
    f.committed = true;
    crashPoint(`${kind}:commit`);
  }
  for (const [i, file] of f.files.entries()) {
    if (f.removed.has(i)) continue;
    const late = await removeAsPlanned(file);
    if (late) return putback(ctx, f, late.reason, { index: i, handle: late.handle });
    await journal.write({ op: 'removed', key: f.key, index: i }, false);
    f.removed.add(i);
    crashPoint(`${kind}:removed`);
  }
  await fsyncDirs(f.files.map((file) => dirname(file.from)));
  // A restored family's folder goes once every file is back.
  if (kind === 'restore') await removeDir(f.folder);
  await journal.write({ op: 'done', key: f.key }, false);
  f.done = true;
  crashPoint(`${kind}:done`);
  return outcome(kind, f, true);
}

/** Is the file at `path` the one this family placed or moved (not one written there since)? */
async function isOurs(path: string, other: string, sha: string | undefined): Promise<boolean> {
  if (await sameInode(path, other)) return true;
  return sha !== undefined && (await hashPath(path).catch(() => null)) === sha;
}

/** Before commit: removes what was placed; the sources never moved. */
export async function rollback(ctx: RunContext, f: FamilyState, reason: string): Promise<FamilyOutcome> {
  if (ctx.kind === 'archive') {
    // Everything placed is in Canopy's own folder for this family.
    await removeDir(f.folder);
  } else {
    for (const [i, file] of f.files.entries()) {
      const there = await lstatOrNull(file.to);
      if (there && (await isOurs(file.to, file.from, f.placed.get(i) ?? file.sha256))) await removePlaced(file.to);
      else await removePart(file.to);
    }
  }
  if (ctx.kind === 'restore') await fsyncDirs(f.files.map((file) => dirname(file.to)));
  await ctx.journal.write({ op: 'undone', key: f.key, reason });
  f.undone = reason;
  return outcome(ctx.kind, f, false, reason);
}

/** After commit (archive): a source was written as it went; every file returns to its path. */
export async function putback(
  ctx: RunContext,
  f: FamilyState,
  reason: string,
  late?: { index: number; handle?: FileHandle },
): Promise<FamilyOutcome> {
  await ctx.journal.write({ op: 'putback', key: f.key, reason });
  f.putback = reason;
  const problems: string[] = [];
  try {
    for (const [i, file] of f.files.entries()) {
      const sha = f.placed.get(i);
      if (await lstatOrNull(file.from)) {
        if (!(await isOurs(file.from, file.to, sha)) && f.removed.has(i))
          problems.push(`a new ${file.from} was written during the archive; the archived copy stays at ${file.to}`);
        continue;
      }
      // The late bytes are only in the handle when the archived copy is another inode.
      const useHandle = late?.index === i && late.handle && !(await handleIs(late.handle, file.to));
      await placeFile(file.to, file.from, file, useHandle ? late.handle : undefined);
    }
  } finally {
    await late?.handle?.close();
  }
  await fsyncDirs(f.files.map((file) => dirname(file.from)));
  if (problems.length === 0) await removeDir(f.folder);
  const said = problems.length === 0 ? reason : `${reason}; ${problems.join('; ')}`;
  await ctx.journal.write({ op: 'undone', key: f.key, reason: said });
  f.undone = said;
  return outcome(ctx.kind, f, false, said);
}
