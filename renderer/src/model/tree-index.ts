import type { EntryNodeDto } from '../lib/shared';

/**
 * The session's parentId tree as the graph draws it, over integer indices and typed arrays (a
 * 100k-entry session must index in milliseconds). Children are in pi's /tree order: oldest first
 * by timestamp, the child whose subtree holds the leaf first. Iterative throughout; cycles are cut.
 */
export interface TreeIndex {
  size: number;
  /** index → id / entry. A duplicated id keeps the later line, as pi's id index does. */
  ids: string[];
  entries: EntryNodeDto[];
  indexOf: Map<string, number>;
  /** Resolved parent index; -1 for roots, dangling parents, self-parents and cut cycles. */
  parent: Int32Array;
  /** Children of i are childList[childStart[i] .. childStart[i + 1]), in display order. */
  childStart: Int32Array;
  childList: Int32Array;
  roots: number[];
  /** Pre-order over the ordered tree: parents before children, the leaf's branch first. */
  order: Int32Array;
  /** 1 for the leaf and every ancestor of it (the whole walk, not truncated at checkpoints). */
  onLeafBranch: Uint8Array;
  leaf: number;
}

const indexes = new WeakMap<object, TreeIndex>();

/** The index of a graph, built once and shared by its readers (canvas, context list, compaction inspector). */
export function treeIndexOf(graph: { entries: readonly EntryNodeDto[]; leafId: string | null }): TreeIndex {
  let index = indexes.get(graph);
  if (!index) indexes.set(graph, (index = buildTreeIndex(graph.entries, graph.leafId)));
  return index;
}

/** The entry with this id (the later line of a duplicated id). */
export function entryById(index: TreeIndex, id: string): EntryNodeDto | undefined {
  const at = index.indexOf.get(id);
  return at === undefined ? undefined : index.entries[at];
}

export function buildTreeIndex(input: readonly EntryNodeDto[], leafId: string | null): TreeIndex {
  const indexOf = new Map<string, number>();
  const entries: EntryNodeDto[] = [];
  const ids: string[] = [];
  for (const entry of input) {
    const at = indexOf.get(entry.id);
    if (at !== undefined)
      entries[at] = entry; // the later line wins, in the earlier slot
    else {
      indexOf.set(entry.id, entries.length);
      entries.push(entry);
      ids.push(entry.id);
    }
  }
  const n = entries.length;

  const parent = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const p = entries[i]!.parentId;
    const pi = p ? indexOf.get(p) : undefined;
    parent[i] = pi === undefined || pi === i ? -1 : pi;
  }
  breakCycles(parent);

  const leaf = leafId !== null ? (indexOf.get(leafId) ?? -1) : -1;
  const onLeafBranch = new Uint8Array(n);
  for (let cur = leaf; cur !== -1 && onLeafBranch[cur] === 0; cur = parent[cur]!) onLeafBranch[cur] = 1;

  // Children in CSR form, then each sibling group sorted.
  const childStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) if (parent[i]! !== -1) childStart[parent[i]! + 1]!++;
  for (let i = 0; i < n; i++) childStart[i + 1]! += childStart[i]!;
  const fill = childStart.slice(0, n);
  const childList = new Int32Array(Math.max(childStart[n]!, 0));
  const roots: number[] = [];
  for (let i = 0; i < n; i++) {
    const p = parent[i]!;
    if (p === -1) roots.push(i);
    else childList[fill[p]!++] = i;
  }

  const times = new Float64Array(n).fill(Number.NaN);
  const timeOf = (i: number): number => {
    let t = times[i]!;
    if (Number.isNaN(t)) {
      t = Date.parse(entries[i]!.timestamp);
      if (Number.isNaN(t)) t = Number.POSITIVE_INFINITY;
      times[i] = t;
    }
    return t;
  };
  const compare = (a: number, b: number): number =>
    onLeafBranch[b]! - onLeafBranch[a]! || timeOf(a) - timeOf(b) || entries[a]!.line - entries[b]!.line || a - b;
  for (let i = 0; i < n; i++) {
    const s = childStart[i]!;
    const e = childStart[i + 1]!;
    if (e - s > 1) childList.set(Array.from(childList.subarray(s, e)).sort(compare), s);
  }
  roots.sort(compare);

  const order = new Int32Array(n);
  let k = 0;
  const stack = new Int32Array(n);
  let top = 0;
  for (let r = roots.length - 1; r >= 0; r--) stack[top++] = roots[r]!;
  while (top > 0) {
    const i = stack[--top]!;
    order[k++] = i;
    for (let c = childStart[i + 1]! - 1; c >= childStart[i]!; c--) stack[top++] = childList[c]!;
  }

  return { size: n, ids, entries, indexOf, parent, childStart, childList, roots, order, onLeafBranch, leaf };
}

/**
 * Walks every parent chain once (colouring, no recursion). A chain that runs into itself is cut at
 * the entry whose parent closes the loop; that entry becomes a root.
 */
function breakCycles(parent: Int32Array): void {
  const n = parent.length;
  const state = new Uint8Array(n); // 0 new, 1 on the current walk, 2 done
  const walk = new Int32Array(n);
  for (let start = 0; start < n; start++) {
    if (state[start] !== 0) continue;
    let len = 0;
    let cur = start;
    while (cur !== -1 && state[cur] === 0) {
      state[cur] = 1;
      walk[len++] = cur;
      cur = parent[cur]!;
    }
    if (cur !== -1 && state[cur] === 1) parent[walk[len - 1]!] = -1;
    for (let j = 0; j < len; j++) state[walk[j]!] = 2;
  }
}

export function childIds(index: TreeIndex, id: string): string[] {
  const i = index.indexOf.get(id);
  if (i === undefined) return [];
  return Array.from(index.childList.subarray(index.childStart[i]!, index.childStart[i + 1]!), (c) => index.ids[c]!);
}

export function parentIdOf(index: TreeIndex, id: string): string | null {
  const i = index.indexOf.get(id);
  if (i === undefined || index.parent[i] === -1) return null;
  return index.ids[index.parent[i]!]!;
}

export const orderIds = (index: TreeIndex): string[] => Array.from(index.order, (i) => index.ids[i]!);
export const rootIds = (index: TreeIndex): string[] => index.roots.map((i) => index.ids[i]!);
