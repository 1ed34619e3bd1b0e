/**
 * Leaf → root walks, returned root-first. Both of pi's walks loop forever on a parentId cycle;
 * here every walk keeps a visited set, stops at the repeat and reports it.
 */
import { compactionFacts } from './entry-fields';
import { IndexedEntry } from './lazy-entry';
import type { Entry, Issue } from './types';

export interface PathResult {
  entries: Entry[];
  issues: Issue[];
}

function cycleIssue(e: Entry): Issue {
  return { line: e.line, kind: 'cycle', message: `parentId cycle: the walk reached entry ${e.id} twice and stopped` };
}

function danglingIssue(e: Entry): Issue {
  return { line: e.line, kind: 'dangling_parent', message: `entry ${e.id} names missing parent ${e.parentId}; the path starts at it` };
}

/**
 * CA (buildSessionPath / getBranch): every ancestor up to a null/"" parentId or a parent that is
 * not in the file (that orphan becomes the first element; pi reports nothing, we report it).
 */
export function caWalk(start: Entry, byId: Map<string, Entry>): PathResult {
  return indexedWalk(start, byId, null) ?? idWalk(start, byId, null);
}

/**
 * H3 (JsonlSessionStorage.getPathToRootOrCompaction, pi-agent-core 0.82.1): like CA, but a
 * compaction with a truthy `retainedTail` (even []) ends the walk at itself, and a compaction
 * without one makes the walk stop once its `firstKeptEntryId` has been added (an older such
 * compaction met first overwrites that stop). pi throws on a missing parent; we stop and report.
 * The start entry must exist (pi: not_found otherwise; the caller reports that).
 */
export function h3Walk(start: Entry, byId: Map<string, Entry>): PathResult {
  return indexedWalk(start, byId, h3Stop()) ?? idWalk(start, byId, h3Stop());
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

function idWalk(start: Entry, byId: Map<string, Entry>, stops: StopRule): PathResult {
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
  return { entries: path, issues };
}

/**
 * The same walks over an indexed session's parent table (integer steps, a mark array instead of
 * a Set): a 400k-entry path takes a millisecond or two instead of a few hundred. Null when the
 * table does not describe `byId` (another index, an eagerly parsed session): use the id walk.
 * Every entry on a walk is its id's winner in `byId`, so marking positions is marking ids.
 */
function indexedWalk(start: Entry, byId: Map<string, Entry>, stops: StopRule): PathResult | null {
  if (!(start instanceof IndexedEntry) || byId.get(start.id) !== start) return null;
  const store = start.store;
  const state = store.walkState(byId);
  if (!state) return null;
  const { parents, marks, epoch, order } = state;
  const entries = store.entries;
  const issues: Issue[] = [];
  let n = 0;
  let cur = start.i;
  for (;;) {
    if (marks[cur] === epoch) {
      issues.push(cycleIssue(entries[cur]!));
      break;
    }
    marks[cur] = epoch;
    order[n++] = cur;
    if (stops?.(entries[cur]!)) break;
    let p = parents[cur]!;
    if (p === -3) p = store.resolveParent(cur);
    if (p === -2) break;
    if (p < 0) {
      issues.push(danglingIssue(entries[cur]!));
      break;
    }
    cur = p;
  }
  const path = new Array<Entry>(n);
  for (let k = 0; k < n; k++) path[k] = entries[order[n - 1 - k]!]!;
  return { entries: path, issues };
}
