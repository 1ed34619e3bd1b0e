import type { DrawNode, DrawTree } from './collapse';
import { placeSides, type Lanes } from './lanes';

/**
 * Levels of detail over the collapsed tree, laid out as lanes (as git graph views draw history):
 * the leaf's path is a vertical trunk in lane 0; what forks off it hangs in lanes to the right.
 * A level draws at most `rows` trunk rows: the weightiest trunk nodes on their own (the root and
 * the leaf always, then compactions, labels, branch points, prompts), each run between them as
 * one chain; a fork's side branches are drawn when small enough, else as one cluster. PURE.
 */
export type LodKind = 'entry' | 'chain' | 'cluster';

export interface LodNode {
  /** A draw node's id when it stands for one draw node; `run:<first>` / `cluster:<row>` otherwise. */
  id: string;
  kind: LodKind;
  /** The draw nodes it stands for: its own, a run's in trunk order, a cluster's side-branch roots. */
  draws: string[];
  entries: number;
  tips: number;
  compactions: number;
  parent: string | null;
  children: string[];
  lane: number;
  row: number;
  trunk: boolean;
}

export interface LodFacts {
  /** How much a trunk node deserves a row of its own (higher first); ties spread evenly. */
  weight(node: DrawNode): number;
  isCompaction(node: DrawNode): boolean;
}

export interface LodOptions {
  /** Most trunk rows (the pinned nodes and both ends are drawn even beyond it). */
  rows: number;
  /** A row's side branches with at most this many draw nodes in all are drawn, else clustered. */
  sideNodes: number;
  /** Draw nodes always drawn on their own (the selection, a focus target, what the user opened). */
  pinned: ReadonlySet<string>;
  /** The draw node the trunk ends in (the leaf's); null: the first root's first-child path. */
  leaf: string | null;
}

export interface Lod {
  nodes: Map<string, LodNode>;
  roots: string[];
  /** Pre-order (the trunk's rows first at each node). */
  order: string[];
  /** Draw node id → the LOD node showing it. */
  ownerOf: Map<string, string>;
  lanes: number;
  rows: number;
}

export function trunkOf(tree: DrawTree, leaf: string | null): string[] {
  const out: string[] = [];
  if (leaf !== null && tree.nodes.has(leaf)) {
    for (let id: string | null = leaf; id !== null; id = tree.nodes.get(id)!.parent) out.push(id);
    return out.reverse();
  }
  for (let id = tree.roots[0]; id !== undefined; id = tree.nodes.get(id)!.children[0]) out.push(id);
  return out;
}

/** i with its low `bits` bits reversed: equal weights are picked spread over the trunk. */
function spread(i: number, bits: number): number {
  let r = 0;
  for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
  return r;
}

/** Trunk positions in the order they earn a row: pinned and the ends, then by weight. */
function priority(tree: DrawTree, trunk: string[], facts: LodFacts, pinned: ReadonlySet<string>): number[] {
  const m = trunk.length;
  const bits = Math.max(1, Math.ceil(Math.log2(m + 1)));
  const w = trunk.map((id, i) =>
    i === 0 || i === m - 1 || pinned.has(id) ? Number.POSITIVE_INFINITY : facts.weight(tree.nodes.get(id)!),
  );
  const key = trunk.map((_, i) => spread(i, bits));
  return trunk.map((_, i) => i).sort((a, b) => w[b]! - w[a]! || key[a]! - key[b]!);
}

/** Rows when the first k of `prio` are picked: each pick one row, each gap between picks one more. */
function rowsFor(m: number, prio: number[], k: number, picked: Uint8Array): number {
  picked.fill(0);
  for (let j = 0; j < k; j++) picked[prio[j]!] = 1;
  let rows = 0;
  for (let i = 0; i < m; i++) if (picked[i] || i === 0 || picked[i - 1]) rows++;
  return rows;
}

/** The trunk positions drawn on their own: the most the row budget allows. */
export function pickTrunk(
  tree: DrawTree,
  trunk: string[],
  facts: LodFacts,
  opts: Pick<LodOptions, 'rows' | 'pinned'>,
): Uint8Array {
  const m = trunk.length;
  const picked = new Uint8Array(m);
  if (m === 0) return picked;
  const prio = priority(tree, trunk, facts, opts.pinned);
  let must = 0;
  while (must < m && (prio[must] === 0 || prio[must] === m - 1 || opts.pinned.has(trunk[prio[must]!]!))) must++;
  let lo = must;
  let hi = m;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (rowsFor(m, prio, mid, picked) <= opts.rows) lo = mid;
    else hi = mid - 1;
  }
  let rows = rowsFor(m, prio, lo, picked);
  // Equal weights come in steps of two rows (a pick inside a run splits it): fill what is left
  // with the next picks that cost one row or none.
  for (let j = lo; j < m && rows < opts.rows; j++) {
    const p = prio[j]!;
    const left = p > 0 && !picked[p - 1];
    const right = p < m - 1 && !picked[p + 1];
    const cost = left && right ? 2 : left || right ? 1 : 0;
    if (rows + cost > opts.rows) continue;
    picked[p] = 1;
    rows += cost;
  }
  return picked;
}

export function buildLod(tree: DrawTree, facts: LodFacts, opts: LodOptions): Lod {
  const nodes = new Map<string, LodNode>();
  const ownerOf = new Map<string, string>();
  const trunk = trunkOf(tree, opts.leaf);
  const picked = pickTrunk(tree, trunk, facts, opts);
  const add = (n: LodNode) => {
    nodes.set(n.id, n);
    if (n.parent !== null) nodes.get(n.parent)!.children.push(n.id);
  };
  const stat = (d: DrawNode) => ({
    entries: d.count,
    tips: d.children.length === 0 ? 1 : 0,
    compactions: facts.isCompaction(d) ? 1 : 0,
  });

  // Trunk rows: each picked node, each lone gap node, each longer gap as one run.
  const rows: Array<{ id: string; from: number; to: number }> = [];
  let prev: string | null = null;
  for (let i = 0; i < trunk.length;) {
    let j = i + 1;
    if (!picked[i]) while (j < trunk.length && !picked[j]) j++;
    const draws = trunk.slice(i, j);
    const single = draws.length === 1 ? tree.nodes.get(draws[0]!)! : null;
    const node: LodNode = {
      id: single ? single.id : `run:${draws[0]}`,
      kind: single ? single.kind : 'chain',
      draws,
      entries: 0,
      tips: 0,
      compactions: 0,
      parent: prev,
      children: [],
      lane: 0,
      row: rows.length,
      trunk: true,
    };
    for (const id of draws) {
      const s = stat(tree.nodes.get(id)!);
      node.entries += s.entries;
      node.compactions += s.compactions;
      node.tips += s.tips;
      ownerOf.set(id, node.id);
    }
    add(node);
    rows.push({ id: node.id, from: i, to: j });
    prev = node.id;
    i = j;
  }

  const lanes: Lanes = [[]];
  if (rows.length > 0) lanes[0]!.push([0, rows.length - 1]);
  for (const [r, row] of rows.entries()) {
    const sides: string[] = r === 0 ? tree.roots.filter((id) => id !== trunk[0]) : [];
    for (let k = row.from; k < row.to; k++)
      for (const c of tree.nodes.get(trunk[k]!)!.children) if (c !== trunk[k + 1]) sides.push(c);
    if (sides.length > 0) placeSides(tree, sides, row.id, r, { lanes, nodes, ownerOf, add, stat, opts });
  }

  const roots = rows.length > 0 ? [rows[0]!.id] : [];
  const order: string[] = [];
  const stack = [...roots];
  while (stack.length > 0) {
    const id = stack.pop()!;
    order.push(id);
    const kids = nodes.get(id)!.children;
    for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]!);
  }
  return { nodes, roots, order, ownerOf, lanes: lanes.length, rows: rowCount(nodes) };
}

function rowCount(nodes: Map<string, LodNode>): number {
  let max = -1;
  for (const n of nodes.values()) if (n.row > max) max = n.row;
  return max + 1;
}

/** A level's budget from the rows that fit the pane legibly: each level doubles the detail. */
export function levelOptions(level: number, rowsFit: number): { rows: number; sideNodes: number } {
  return { rows: Math.max(3, rowsFit) * 2 ** level, sideNodes: level === 0 ? 1 : 2 ** (level + 1) };
}

/** Draw nodes under each draw node, itself included (nodes are in pre-order, so one reverse pass). */
function subtreeSizes(tree: DrawTree): Map<string, number> {
  const ids = [...tree.nodes.keys()];
  const size = new Map<string, number>();
  for (let k = ids.length - 1; k >= 0; k--) {
    const d = tree.nodes.get(ids[k]!)!;
    let s = 1;
    for (const c of d.children) s += size.get(c) ?? 0;
    size.set(d.id, s);
  }
  return size;
}

/** The first level that draws every draw node on its own (zooming in stops there). */
export function finestLevel(tree: DrawTree, leaf: string | null, rowsFit: number): number {
  const trunk = trunkOf(tree, leaf);
  const size = subtreeSizes(tree);
  let side = 0;
  for (const [k, id] of trunk.entries()) {
    let s = 0;
    for (const c of tree.nodes.get(id)!.children) if (c !== trunk[k + 1]) s += size.get(c) ?? 0;
    if (k === 0) for (const r of tree.roots) if (r !== id) s += size.get(r) ?? 0;
    side = Math.max(side, s);
  }
  for (let level = 0; level < 24; level++) {
    const o = levelOptions(level, rowsFit);
    if (o.rows >= trunk.length && o.sideNodes >= side) return level;
  }
  return 24;
}
