import type { VisibleTree } from '../../../model/filters';

/**
 * Linear runs of ordinary entries become one expandable "chain" node so a 100k-entry session draws
 * a handful of nodes. Special entries stay individual: roots, branch points, path ends and whatever
 * `keep` flags (compactions, labeled entries, the leaf, the selection, first-kept targets).
 */
export interface DrawNode {
  /** Entry id, or `chain:<first member id>` for a chain. */
  id: string;
  kind: 'entry' | 'chain';
  /** Entry index of the first (root-most) member. */
  first: number;
  /** Position of the first member in `visible.vorder`; a chain's members follow it there. */
  orderPos: number;
  count: number;
  parent: string | null;
  children: string[];
}

export interface DrawTree {
  nodes: Map<string, DrawNode>;
  roots: string[];
  /** Entry index → the draw node showing it (undefined when hidden). */
  owner: Array<DrawNode | undefined>;
  visible: VisibleTree;
}

export interface CollapseOptions {
  /** Per entry index: 1 = always drawn on its own. */
  keep: Uint8Array | ((entryIndex: number) => boolean);
  /** Entry ids of run starts the user expanded. */
  expanded: ReadonlySet<string>;
  /** Runs shorter than this stay individual. */
  minRun: number;
  /** An expanded run shows this many entries, then the rest is a chain again. */
  page: number;
  /** Trees with at most this many visible entries are not collapsed at all. */
  budget: number;
}

export const DEFAULT_COLLAPSE: Omit<CollapseOptions, 'keep' | 'expanded'> = { minRun: 4, page: 100, budget: 150 };

export const chainId = (firstMemberId: string): string => `chain:${firstMemberId}`;

export function collapseChains(tree: VisibleTree, opts: CollapseOptions): DrawTree {
  const { index, vorder, vparent, vkids } = tree;
  const n = index.size;
  const keep = typeof opts.keep === 'function' ? opts.keep : (i: number) => (opts.keep as Uint8Array)[i] === 1;
  const collapse = vorder.length > opts.budget;
  const special = (i: number) => vparent[i] === -1 || vkids[i] !== 1 || keep(i);

  // Pass 1 (pre-order, so a parent is decided before its only child): run start of every member.
  const runStart = new Int32Array(n).fill(-1);
  const runPos = new Int32Array(n);
  const runLen = new Int32Array(n);
  if (collapse) {
    for (let o = 0; o < vorder.length; o++) {
      const i = vorder[o]!;
      if (special(i)) continue;
      const p = vparent[i]!;
      const start = runStart[p]!;
      if (start !== -1 && !(runPos[p]! + 1 >= opts.page && opts.expanded.has(index.ids[start]!))) {
        runStart[i] = start;
        runPos[i] = runPos[p]! + 1;
        runLen[start]!++;
      } else {
        runStart[i] = i;
        runPos[i] = 0;
        runLen[i] = 1;
      }
    }
  }
  const inChain = (i: number): boolean => {
    const s = runStart[i]!;
    return s !== -1 && runLen[s]! >= opts.minRun && !opts.expanded.has(index.ids[s]!);
  };

  // Pass 2: draw nodes in display order; children arrive in order.
  const nodes = new Map<string, DrawNode>();
  const owner: Array<DrawNode | undefined> = new Array(n);
  const roots: string[] = [];
  for (let o = 0; o < vorder.length; o++) {
    const i = vorder[o]!;
    if (inChain(i)) {
      const s = runStart[i]!;
      if (s !== i) {
        owner[i] = owner[s];
        continue;
      }
    }
    const chain = inChain(i);
    const p = vparent[i]!;
    const parentNode = p === -1 ? undefined : owner[p];
    const node: DrawNode = {
      id: chain ? chainId(index.ids[i]!) : index.ids[i]!,
      kind: chain ? 'chain' : 'entry',
      first: i,
      orderPos: o,
      count: chain ? runLen[i]! : 1,
      parent: parentNode?.id ?? null,
      children: [],
    };
    nodes.set(node.id, node);
    owner[i] = node;
    if (parentNode) parentNode.children.push(node.id);
    else roots.push(node.id);
  }
  return { nodes, roots, owner, visible: tree };
}

/** Entry indices drawn by a node, root-most first. */
export function membersOf(tree: DrawTree, node: DrawNode): Int32Array {
  return tree.visible.vorder.subarray(node.orderPos, node.orderPos + node.count);
}

export function memberIds(tree: DrawTree, node: DrawNode): string[] {
  return Array.from(membersOf(tree, node), (i) => tree.visible.index.ids[i]!);
}

/** The draw node showing an entry, or for a hidden entry its nearest drawn ancestor. */
export function drawNodeOf(tree: DrawTree, entryId: string): DrawNode | null {
  const index = tree.visible.index;
  let cur = index.indexOf.get(entryId) ?? -1;
  for (let guard = 0; cur !== -1 && guard <= index.size; guard++) {
    const node = tree.owner[cur];
    if (node) return node;
    cur = index.parent[cur]!;
  }
  return null;
}
