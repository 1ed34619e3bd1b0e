/**
 * The tree view (roots and children, pi-coding-agent's getTree rules) by id, and the entry list
 * `canopy tree --json` prints; both over the session's envelope columns (tree-shape.ts).
 */
import { entryColumns } from './tree-columns';
import { treeShape } from './tree-shape';
import type { Issue, ParsedSession } from '../types';

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
  const c = entryColumns(s);
  const out = new Array<TreeEntry>(c.count);
  for (let i = 0; i < c.count; i++) {
    const type = c.typeOf(i);
    const t: TreeEntry = { id: c.idOf(i), parentId: c.parentIdOf(i), type, line: c.lineOf(i) };
    const role = c.roleOf(i);
    if (role !== undefined) t.role = role;
    if (type === 'leaf' || type === 'label' || type === 'context_edit') {
      const target = c.targetOf(i);
      if (target !== undefined) t.targetId = target;
    }
    out[i] = t;
  }
  return out;
}

export interface Tree {
  roots: string[];
  children: Map<string, string[]>;
  issues: Issue[];
}

/** The tree by id (treeShape's rules): children listed under each parent that has some. */
export function buildTree(s: ParsedSession): Tree {
  const c = entryColumns(s);
  const t = treeShape(c);
  const children = new Map<string, string[]>();
  // Parents in the order their first child appears in the file.
  for (let i = 0; i < c.count; i++) {
    const p = t.parent[i]!;
    if (p < 0 || t.kidCount[p] === 0) continue;
    const id = c.idOf(p);
    if (children.has(id)) continue;
    const start = t.kidStart[p]!;
    children.set(
      id,
      Array.from(t.kids.subarray(start, start + t.kidCount[p]!), (k) => c.idOf(k)),
    );
  }
  return { roots: t.roots.map((r) => c.idOf(r)), children, issues: t.issues };
}
