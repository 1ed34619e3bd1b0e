/**
 * Leaf → root walks, returned root-first. Both of pi's walks loop forever on a parentId cycle;
 * here every walk keeps a visited set, stops at the repeat and reports it.
 */
import { compactionFacts } from './entry-fields';
import type { Entry, EntrySource, Issue, ParentTable, WalkState } from '../types';

export interface PathResult {
  /** Root → leaf (for an indexed walk, built on first access). */
  readonly entries: Entry[];
  issues: Issue[];
  /** Entries on the path. */
  readonly length: number;
  /** The k-th entry from the root, without building `entries`. */
  entryAt(k: number): Entry;
  /** Its type (an indexed walk reads it from the store: no entry object is created). */
  typeAt(k: number): string;
  /** The entries' ids, root first (an indexed walk reads them from the store's id table). */
  ids(): string[];
}

/** What the context rules read of a path: its entries one by one, or the whole list. */
export type EntrySeq = Pick<PathResult, 'entries' | 'length' | 'entryAt' | 'typeAt'>;

/** A walk's result over a list it built itself. */
function listResult(path: Entry[], issues: Issue[]): PathResult {
  return { ...seqOf(path), issues, ids: () => path.map((e) => e.id) };
}

/** A list as an EntrySeq. */
export function seqOf(list: Entry[]): EntrySeq {
  return { entries: list, length: list.length, entryAt: (k) => list[k]!, typeAt: (k) => list[k]!.type };
}

/**
 * A walk's result over a parent table: the positions only (a 200k-entry path is 800 KB of integers); the
 * entry list and the id list are built when asked for, so switching branches touches no entry.
 */
class IndexedPath implements PathResult {
  private list: Entry[] | null = null;

  constructor(
    private readonly store: ParentTable,
    private readonly at: Int32Array,
    readonly issues: Issue[],
  ) {}

  get length(): number {
    return this.at.length;
  }

  entryAt(k: number): Entry {
    return this.store.entryAt(this.at[k]!);
  }

  typeAt(k: number): string {
    return this.store.typeOf(this.at[k]!);
  }

  get entries(): Entry[] {
    if (!this.list) {
      const { at, store } = this;
      const out = new Array<Entry>(at.length);
      for (let k = 0; k < at.length; k++) out[k] = store.entryAt(at[k]!);
      this.list = out;
    }
    return this.list;
  }

  ids(): string[] {
    const { at, store } = this;
    const out = new Array<string>(at.length);
    for (let k = 0; k < at.length; k++) out[k] = store.idOf(at[k]!);
    return out;
  }
}

function cycleIssue(e: Entry): Issue {
  return { line: e.line, kind: 'cycle', message: `parentId cycle: the walk reached entry ${e.id} twice and stopped` };
}

function danglingIssue(e: Entry): Issue {
  return {
    line: e.line,
    kind: 'dangling_parent',
    message: `entry ${e.id} names missing parent ${e.parentId}; the path starts at it`,
  };
}

/**
 * CA (buildSessionPath / getBranch): every ancestor up to a null/"" parentId or a parent that is
 * not in the file (that orphan becomes the first element; pi reports nothing, we report it).
 */
export function caWalk(start: Entry, entries: EntrySource): PathResult {
  return tableWalk(start, entries, () => null) ?? idWalk(start, entries.byId, null);
}

/**
 * H3 (JsonlSessionStorage.getPathToRootOrCompaction, pi-agent-core 0.82.1): like CA, but a
 * compaction with a truthy `retainedTail` (even []) ends the walk at itself, and a compaction
 * without one makes the walk stop once its `firstKeptEntryId` has been added (an older such
 * compaction met first overwrites that stop). pi throws on a missing parent; we stop and report.
 * The start entry must exist (pi: not_found otherwise; the caller reports that).
 */
export function h3Walk(start: Entry, entries: EntrySource): PathResult {
  return tableWalk(start, entries, h3Stop) ?? idWalk(start, entries.byId, h3Stop());
}

/** True when the walk ends at the entry just added; null: only the root or a missing parent ends it (CA). */
type StopRule = ((e: Entry) => boolean) | null;

/** H3's stop rule (see h3Walk); it keeps the pending firstKeptEntryId stop, so one per walk. */
function h3Stop(): StopRule {
  let stopAt: unknown = null;
  return (e) => {
    if (stopAt !== null && e.id === stopAt) return true;
    if (e.type === 'compaction') {
      const c = compactionFacts(e);
      if (c.retainedTail) return true;
      stopAt = c.firstKeptEntryId ?? null;
    }
    return false;
  };
}

function idWalk(start: Entry, byId: ReadonlyMap<string, Entry>, stops: StopRule): PathResult {
  const path: Entry[] = [];
  const issues: Issue[] = [];
  const visited = new Set<string>();
  let cur: Entry | undefined = start;
  while (cur) {
    if (visited.has(cur.id)) {
      issues.push(cycleIssue(cur));
      break;
    }
    visited.add(cur.id);
    path.push(cur);
    if (stops?.(cur)) break;
    const p: string | null = cur.parentId;
    if (!p) break;
    const parent = byId.get(p);
    if (!parent) issues.push(danglingIssue(cur));
    cur = parent;
  }
  path.reverse();
  return listResult(path, issues);
}

/**
 * The same walks over a source's parent table (integer steps; visit marks only when a walk runs
 * long enough to hold a cycle): a 400k-entry path takes a millisecond or two instead of a few
 * hundred. Null when the source has no table, or `start` is not its id's winner in it: use the id walk.
 * Every entry on a walk is its id's winner, so marking positions is marking ids.
 */
function tableWalk(start: Entry, entries: EntrySource, stops: () => StopRule): PathResult | null {
  const store = entries.parents;
  const from = store ? store.positionOf(start) : -1;
  if (!store || from < 0) return null;
  const state = store.walkState();
  const issues: Issue[] = [];
  // Without a cycle a walk visits at most `count` entries, so it needs no visit marks unless it
  // gets that far; only then is it walked again with marks, to stop at the repeat.
  let n = walkParents(store, state, from, stops(), issues, false);
  if (n < 0) n = walkParents(store, state, from, stops(), issues, true);
  // `order` is scratch for the next walk: this walk keeps its own positions, root first.
  const { order } = state;
  const at = new Int32Array(n);
  for (let k = 0; k < n; k++) at[k] = order[n - 1 - k]!;
  return new IndexedPath(store, at, issues);
}

/**
 * One walk from entry `start` over the parent table into `state.order`; returns its length. With
 * `marked`, a repeat ends it (reported as a cycle); without, it gives up (-1) once it has visited
 * as many entries as there are.
 */
function walkParents(
  store: ParentTable,
  state: WalkState,
  start: number,
  stops: StopRule,
  issues: Issue[],
  marked: boolean,
): number {
  const { parents, marks, epoch, order } = state;
  const count = store.count;
  let n = 0;
  let cur = start;
  for (;;) {
    if (marked) {
      if (marks[cur] === epoch) {
        issues.push(cycleIssue(store.entryAt(cur)));
        return n;
      }
      marks[cur] = epoch;
    } else if (n === count) {
      return -1;
    }
    order[n++] = cur;
    if (stops?.(store.entryAt(cur))) return n;
    let p = parents[cur]!;
    if (p === -3) p = store.resolveParent(cur);
    if (p === -2) return n;
    if (p < 0) {
      issues.push(danglingIssue(store.entryAt(cur)));
      return n;
    }
    cur = p;
  }
}
