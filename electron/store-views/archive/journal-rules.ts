/**
 * The archive journal's rules. PURE: what a run records, what a journal read back says about each
 * family, and what finishing an interrupted run must do. The I/O lives in journal.ts and run.ts.
 *
 * A family moves file by file from its sources to its destinations (archive: root → archive folder;
 * restore: the reverse). Every step is journaled before it is taken (write-ahead). Until `commit`
 * the sources are untouched, so an archive rolls back by removing what it placed; after `commit`
 * every destination is verified, so the run goes forward and removes the sources. A restore always
 * goes forward (its pre-checks passed); a family written during its archive is put back.
 */

/** One file of a family as the journal plans it. */
export interface PlannedFile {
  /** Where the file is now (archive: in the root; restore: in the archive folder). */
  from: string;
  /** Where it goes. */
  to: string;
  bytes: number;
  mtimeMs: number;
  /** SHA-256 of its bytes: known before a restore, learned while archiving. */
  sha256?: string;
  /** The file is a symbolic link with this target (moved as a link, target text unchanged). */
  symlink?: string;
}

export type RunKind = 'archive' | 'restore';

export type JournalRecord =
  | { op: 'begin'; kind: RunKind; pid: number; at: string }
  /** A family's plan, written before any of its files is touched. */
  | { op: 'family'; key: string; family: string; folder: string; roots: string[]; files: PlannedFile[] }
  /** File `index` is at its destination, verified (its hash). */
  | { op: 'placed'; key: string; index: number; sha256: string }
  /** Every destination is placed (and an archive's manifest written): the sources may go. */
  | { op: 'commit'; key: string }
  | { op: 'removed'; key: string; index: number }
  | { op: 'done'; key: string }
  /** The family goes back where it was (written during its archive, or a step failed). */
  | { op: 'putback'; key: string; reason: string }
  | { op: 'undone'; key: string; reason: string };

export interface FamilyState {
  key: string;
  family: string;
  folder: string;
  roots: string[];
  files: PlannedFile[];
  placed: Map<number, string>;
  committed: boolean;
  removed: Set<number>;
  done: boolean;
  putback: string | null;
  undone: string | null;
}

export interface JournalState {
  kind: RunKind | null;
  pid: number | null;
  families: FamilyState[];
  /** Lines that did not parse (a torn last line after a crash is expected; it was never acted on). */
  torn: number;
}

/** A family's state when its plan is recorded (nothing taken yet). */
export function familyState(r: Extract<JournalRecord, { op: 'family' }>): FamilyState {
  return {
    key: r.key,
    family: r.family,
    folder: r.folder,
    roots: r.roots,
    files: r.files,
    placed: new Map(),
    committed: false,
    removed: new Set(),
    done: false,
    putback: null,
    undone: null,
  };
}

/** Folds the journal's lines, in order, into each family's state. */
export function readJournal(lines: readonly string[]): JournalState {
  const state: JournalState = { kind: null, pid: null, families: [], torn: 0 };
  const byKey = new Map<string, FamilyState>();
  for (const line of lines) {
    let r: JournalRecord;
    try {
      r = JSON.parse(line) as JournalRecord;
    } catch {
      state.torn++;
      continue;
    }
    if (r.op === 'begin') {
      state.kind = r.kind;
      state.pid = r.pid;
      continue;
    }
    if (r.op === 'family') {
      const f = familyState(r);
      byKey.set(r.key, f);
      state.families.push(f);
      continue;
    }
    const f = byKey.get(r.key);
    if (!f) continue;
    if (r.op === 'placed') f.placed.set(r.index, r.sha256);
    else if (r.op === 'commit') f.committed = true;
    else if (r.op === 'removed') f.removed.add(r.index);
    else if (r.op === 'done') f.done = true;
    else if (r.op === 'putback') f.putback = r.reason;
    else if (r.op === 'undone') f.undone = r.reason;
  }
  return state;
}

export type Recovery =
  /** Finished (done or undone): nothing to do. */
  | { action: 'none' }
  /** Remove what was placed; the sources never moved. */
  | { action: 'rollback' }
  /** Place what is not placed yet, commit, remove the sources. */
  | { action: 'forward' }
  /** Bring back every file to its source path from its destination, then remove the destinations. */
  | { action: 'putback'; reason: string };

/** What finishing an interrupted family must do. */
export function recoveryOf(kind: RunKind, f: FamilyState): Recovery {
  if (f.done || f.undone !== null) return { action: 'none' };
  if (f.putback !== null) return { action: 'putback', reason: f.putback };
  if (f.committed || kind === 'restore') return { action: 'forward' };
  return { action: 'rollback' };
}

/** True when nothing of the run is left to do (the journal may be removed). */
export function runFinished(state: JournalState): boolean {
  return state.kind === null || state.families.every((f) => recoveryOf(state.kind!, f).action === 'none');
}

/** Why a source cannot go as planned (null: it is as planned). */
export function staleReason(
  path: string,
  planned: { bytes: number; mtimeMs: number; symlink?: string },
  now: { size: number; mtimeMs: number; target?: string } | null,
): string | null {
  if (!now) return `${path} is gone`;
  if (planned.symlink !== now.target) return `${path} was replaced during the archive`;
  if (now.size !== planned.bytes || now.mtimeMs !== planned.mtimeMs) return `${path} was written during the archive`;
  return null;
}

const MAX_NAME = 200;

/** A safe, short, unique folder name for a family (ids may be any length and any characters). */
export function familyFolderName(family: string, stamp: string, unique: string): string {
  const safe = family.replace(/[^\w.-]/g, '_').slice(0, 48);
  return `${safe}-${stamp}-${unique}`;
}

/** The stored name of a family's i-th file (its own name kept, cut to fit a file system's limit). */
export function storedName(index: number, base: string): string {
  const name = `${index}-${base}`;
  return name.length <= MAX_NAME ? name : `${index}-${base.slice(-(MAX_NAME - 12))}`;
}
