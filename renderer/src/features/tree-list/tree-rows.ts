import type { TreeIndex } from '../../model/tree-index';

/** One line of the tree list: an entry, its indent, and whether it is a branch point (foldable). */
export interface TreeRow {
  /** Index into the tree index. */
  i: number;
  depth: number;
  branchPoint: boolean;
  folded: boolean;
  /** Entries hidden under a folded branch point. */
  hidden: number;
}

/**
 * The tree as pi's /tree lists it: pre-order with the active branch first (the index's order),
 * indented only where a branch starts (a single child continues its parent's column). Folded
 * branch points hide their subtrees. O(n) per call, no recursion (a 100k-entry session lists in
 * milliseconds).
 */
export function treeRows(index: TreeIndex, folded: ReadonlySet<string>): TreeRow[] {
  const n = index.size;
  const pos = new Int32Array(n);
  for (let k = 0; k < n; k++) pos[index.order[k]!] = k;
  // Subtree sizes, children before parents (reverse pre-order).
  const size = new Int32Array(n).fill(1);
  for (let k = n - 1; k >= 0; k--) {
    const i = index.order[k]!;
    const p = index.parent[i]!;
    if (p !== -1) size[p]! += size[i]!;
  }
  const depth = new Int32Array(n);
  const rows: TreeRow[] = [];
  for (let k = 0; k < n;) {
    const i = index.order[k]!;
    const p = index.parent[i]!;
    const siblings = p === -1 ? index.roots.length : index.childStart[p + 1]! - index.childStart[p]!;
    depth[i] = p === -1 ? (siblings > 1 ? 1 : 0) : depth[p]! + (siblings > 1 ? 1 : 0);
    const branchPoint = index.childStart[i + 1]! - index.childStart[i]! > 1;
    const isFolded = branchPoint && folded.has(index.ids[i]!);
    rows.push({ i, depth: depth[i]!, branchPoint, folded: isFolded, hidden: isFolded ? size[i]! - 1 : 0 });
    k += isFolded ? size[i]! : 1;
  }
  return rows;
}
