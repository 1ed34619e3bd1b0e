/**
 * Leaf → root walks, returned root-first. Both of pi's walks loop forever on a parentId cycle;
 * here every walk keeps a visited set, stops at the repeat and reports it.
 */
import { compactionFacts } from './entry-fields';
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
 * H3 (JsonlSessionStorage.getPathToRootOrCompaction, pi-agent-core 0.82.1): like CA, but a
 * compaction with a truthy `retainedTail` (even []) ends the walk at itself, and a compaction
 * without one makes the walk stop once its `firstKeptEntryId` has been added (an older such
 * compaction met first overwrites that stop). pi throws on a missing parent; we stop and report.
 * The start entry must exist (pi: not_found otherwise; the caller reports that).
 */
export function h3Walk(start: Entry, byId: Map<string, Entry>): PathResult {
  const path: Entry[] = [];
  const issues: Issue[] = [];
  const visited = new Set<string>();
  let stopAt: unknown = null;
  let cur: Entry | undefined = start;
  while (cur) {
    if (visited.has(cur.id)) {
      issues.push(cycleIssue(cur));
      break;
    }
    visited.add(cur.id);
    path.push(cur);
    if (stopAt !== null && cur.id === stopAt) break;
    if (cur.type === 'compaction') {
      const c = compactionFacts(cur);
      if (c.retainedTail) break;
      stopAt = c.firstKeptEntryId ?? null;
    }
    const p: string | null = cur.parentId;
    if (!p) break;
    const parent = byId.get(p);
    if (!parent) issues.push(danglingIssue(cur));
    cur = parent;
  }
  path.reverse();
  return { entries: path, issues };
}
