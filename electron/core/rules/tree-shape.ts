/**
 * The tree (pi-coding-agent's getTree rules) by entry position over envelope columns: a few typed
 * arrays for a 400k-entry session, no entry object, no id map beyond the session's own. Cycles
 * are broken and reported. Iterative throughout: chains can be 100k entries long. PURE.
 */
import type { EntryColumns, Issue } from '../types';

export interface TreeShape {
  /** Root positions, in order. */
  roots: number[];
  /** Children of position p, oldest first: kids[kidStart[p] .. kidStart[p] + kidCount[p]). */
  kidStart: Int32Array;
  kidCount: Int32Array;
  kids: Int32Array;
  /** Parent position of each winner that has one in the tree's input (-1: none; cuts not applied). */
  parent: Int32Array;
  issues: Issue[];
}

/**
 * Roots: parentId null or "", a self-parent, or a parent that is not in the file (pi's getTree).
 * Children are sorted oldest first by entry timestamp (stable, as pi's sort). One node per id:
 * a duplicate id is shown once, as its winning (later) line. Entries caught in a parentId cycle
 * are unreachable in pi's tree; here the cycle member earliest in the file becomes a root.
 */
export function treeShape(c: EntryColumns): TreeShape {
  const n = c.count;
  const roots: number[] = [];
  const issues: Issue[] = [];
  const parent = new Int32Array(n).fill(-1);
  const kidCount = new Int32Array(n);
  let winners = 0;
  for (let i = 0; i < n; i++) {
    if (!c.isWinner(i)) continue;
    winners++;
    const p = c.parentOf(i);
    if (p === -2) {
      roots.push(i);
    } else if (p === i) {
      roots.push(i);
      issues.push({
        line: c.lineOf(i),
        kind: 'cycle',
        message: `entry ${c.idOf(i)} is its own parent; shown as a root`,
      });
    } else if (p >= 0) {
      parent[i] = p;
      kidCount[p]!++;
    } else {
      roots.push(i);
      issues.push({
        line: c.lineOf(i),
        kind: 'dangling_parent',
        message: `entry ${c.idOf(i)} names missing parent ${String(c.parentIdOf(i))}; shown as a root`,
      });
    }
  }

  // Children in file order, as one array cut per parent (kidCount is the fill cursor meanwhile).
  const kidStart = new Int32Array(n);
  let at = 0;
  for (let p = 0; p < n; p++) {
    kidStart[p] = at;
    at += kidCount[p]!;
    kidCount[p] = 0;
  }
  const kids = new Int32Array(at);
  for (let i = 0; i < n; i++) {
    const p = parent[i]!;
    if (p >= 0) kids[kidStart[p]! + kidCount[p]!++] = i;
  }

  // Only siblings need a time; most chains have single children. pi's comparator exactly (a NaN
  // time compares as a tie), over the group in file order: the sort is stable.
  let time: Float64Array | null = null;
  for (let p = 0; p < n; p++) {
    const k = kidCount[p]!;
    if (k < 2) continue;
    const start = kidStart[p]!;
    const group = Array.from(kids.subarray(start, start + k));
    time ??= new Float64Array(n);
    for (const i of group) time[i] = c.timeOf(i);
    const t = time;
    group.sort((a, b) => t[a]! - t[b]!);
    kids.set(group, start);
  }

  const shape: TreeShape = { roots, kidStart, kidCount, kids, parent, issues };
  const reached = new Uint8Array(n);
  const stack = new Int32Array(n);
  let reachedCount = 0;
  const reach = (start: number) => {
    let top = 0;
    stack[top++] = start;
    while (top > 0) {
      const i = stack[--top]!;
      if (reached[i]) continue;
      reached[i] = 1;
      reachedCount++;
      const s = kidStart[i]!;
      for (let k = s + kidCount[i]! - 1; k >= s; k--) stack[top++] = kids[k]!;
    }
  };
  for (const r of roots) reach(r);
  if (reachedCount === winners) return shape;

  const walked = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    if (reached[i] || !c.isWinner(i)) continue;
    // Unreached means every ancestor is unreached too, so the parent chain ends in a cycle.
    let cur = i;
    while (walked[cur] !== i + 1) {
      walked[cur] = i + 1;
      cur = parent[cur]!;
    }
    let breakAt = cur;
    for (let m = parent[cur]!; m !== cur; m = parent[m]!) if (c.lineOf(m) < c.lineOf(breakAt)) breakAt = m;
    const p = parent[breakAt]!;
    const s = kidStart[p]!;
    const last = s + --kidCount[p]!;
    let k = s;
    while (kids[k] !== breakAt) k++;
    kids.copyWithin(k, k + 1, last + 1);
    roots.push(breakAt);
    issues.push({
      line: c.lineOf(breakAt),
      kind: 'cycle',
      message: `entry ${c.idOf(breakAt)} is part of a parentId cycle; the cycle is cut above it`,
    });
    reach(breakAt);
  }
  issues.sort((a, b) => a.line - b.line);
  return shape;
}

/**
 * Visits the tree depth-first, roots in order, each entry before its children, with its depth:
 * the depth grows only below an entry with two or more children, so a 100k-entry chain stays flat.
 */
export function walkTree(t: TreeShape, visit: (i: number, depth: number) => void): void {
  const n = t.kidStart.length;
  const stack = new Int32Array(n);
  const depths = new Int32Array(n);
  let top = 0;
  for (let r = t.roots.length - 1; r >= 0; r--) {
    stack[top] = t.roots[r]!;
    depths[top++] = 0;
  }
  const { kidStart, kidCount, kids } = t;
  while (top > 0) {
    const i = stack[--top]!;
    const depth = depths[top]!;
    visit(i, depth);
    const count = kidCount[i]!;
    if (count === 0) continue;
    const childDepth = count > 1 ? depth + 1 : depth;
    const s = kidStart[i]!;
    for (let k = s + count - 1; k >= s; k--) {
      stack[top] = kids[k]!;
      depths[top++] = childDepth;
    }
  }
}
