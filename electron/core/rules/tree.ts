/**
 * The tree view (roots and children, pi-coding-agent's getTree rules), with cycles broken and
 * reported. Iterative throughout: chains can be 100k entries long.
 */
import { indexById } from './entries';
import { entryRole, entryTargetId, entryTimestamp, timeOf } from './entry-fields';
import type { Entry, Issue, ParsedSession } from '../types';

export interface TreeEntry {
  id: string;
  parentId: string | null;
  type: string;
  line: number;
  role?: string;
  targetId?: string | null;
}

/** Every entry in file order (duplicates included), for `canopy tree`. */
export function listTreeEntries(s: ParsedSession): TreeEntry[] {
  return s.entries.map((e) => {
    const t: TreeEntry = { id: e.id, parentId: e.parentId, type: e.type, line: e.line };
    const role = entryRole(e);
    if (role !== undefined) t.role = role;
    if (e.type === 'leaf' || e.type === 'label' || e.type === 'context_edit') {
      const target = entryTargetId(e);
      if (target !== undefined) t.targetId = target;
    }
    return t;
  });
}

export interface Tree {
  roots: string[];
  children: Map<string, string[]>;
  issues: Issue[];
}

/**
 * Roots: parentId null or "", a self-parent, or a parent that is not in the file (pi's getTree).
 * Children are sorted oldest first by entry timestamp (stable, as pi's sort). One node per id:
 * a duplicate id is shown once, as its winning (later) line. Entries caught in a parentId cycle
 * are unreachable in pi's tree; here the cycle member earliest in the file becomes a root.
 */
export function buildTree(s: ParsedSession): Tree {
  const byId = indexById(s);
  const roots: string[] = [];
  const children = new Map<string, string[]>();
  const issues: Issue[] = [];
  const winners: Entry[] = [];
  for (const e of s.entries) {
    if (byId.get(e.id) !== e) continue;
    winners.push(e);
    const p = e.parentId;
    if (p === null || p === '') {
      roots.push(e.id);
    } else if (p === e.id) {
      roots.push(e.id);
      issues.push({ line: e.line, kind: 'cycle', message: `entry ${e.id} is its own parent; shown as a root` });
    } else if (byId.has(p)) {
      let list = children.get(p);
      if (!list) children.set(p, (list = []));
      list.push(e.id);
    } else {
      roots.push(e.id);
      issues.push({
        line: e.line,
        kind: 'dangling_parent',
        message: `entry ${e.id} names missing parent ${p}; shown as a root`,
      });
    }
  }

  // Only siblings need a time; most chains have single children.
  const timeOfId = (id: string) => timeOf(entryTimestamp(byId.get(id)!));
  for (const list of children.values()) {
    if (list.length < 2) continue;
    const times = new Map(list.map((id) => [id, timeOfId(id)]));
    list.sort((a, b) => times.get(a)! - times.get(b)!);
  }

  const reached = new Set<string>();
  const reach = (start: string) => {
    const stack = [start];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (reached.has(id)) continue;
      reached.add(id);
      const kids = children.get(id);
      if (kids) for (const k of kids) stack.push(k);
    }
  };
  for (const r of roots) reach(r);
  if (reached.size === winners.length) return { roots, children, issues };

  for (const e of winners) {
    if (reached.has(e.id)) continue;
    // Unreached means every ancestor is unreached too, so the parent chain ends in a cycle.
    const walked = new Set<string>();
    let cur: Entry = e;
    while (!walked.has(cur.id)) {
      walked.add(cur.id);
      cur = byId.get(cur.parentId as string)!;
    }
    let breakAt = cur;
    for (let m = byId.get(cur.parentId as string)!; m !== cur; m = byId.get(m.parentId as string)!) {
      if (m.line < breakAt.line) breakAt = m;
    }
    const siblings = children.get(breakAt.parentId as string);
    if (siblings) {
      siblings.splice(siblings.indexOf(breakAt.id), 1);
      if (siblings.length === 0) children.delete(breakAt.parentId as string);
    }
    roots.push(breakAt.id);
    issues.push({
      line: breakAt.line,
      kind: 'cycle',
      message: `entry ${breakAt.id} is part of a parentId cycle; the cycle is cut above it`,
    });
    reach(breakAt.id);
  }
  issues.sort((a, b) => a.line - b.line);
  return { roots, children, issues };
}
