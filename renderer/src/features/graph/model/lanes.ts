import type { DrawNode, DrawTree } from './collapse';
import type { LodNode, LodOptions } from './lod';

/** Per lane, the row intervals [from, to] it holds. */
export type Lanes = Array<Array<[number, number]>>;

interface Stat {
  entries: number;
  tips: number;
  compactions: number;
}

export interface SideContext {
  lanes: Lanes;
  nodes: Map<string, LodNode>;
  ownerOf: Map<string, string>;
  add(node: LodNode): void;
  stat(node: DrawNode): Stat;
  opts: LodOptions;
}

/** The first lane right of `after` free over rows [from, to]; it is taken. */
export function takeLane(lanes: Lanes, after: number, from: number, to: number): number {
  for (let l = after + 1; ; l++) {
    if (l >= lanes.length) lanes.push([]);
    const lane = lanes[l]!;
    if (lane.every(([a, b]) => b < from || a > to)) {
      lane.push([from, to]);
      return l;
    }
  }
}

/** Every draw node under the given roots (iterative), with their summed facts. */
function gather(tree: DrawTree, roots: string[], ctx: SideContext) {
  const ids: string[] = [];
  const sum: Stat = { entries: 0, tips: 0, compactions: 0 };
  let pinned = false;
  const stack = [...roots];
  while (stack.length > 0) {
    const id = stack.pop()!;
    const d = tree.nodes.get(id)!;
    ids.push(id);
    const s = ctx.stat(d);
    sum.entries += s.entries;
    sum.tips += s.tips;
    sum.compactions += s.compactions;
    if (ctx.opts.pinned.has(id)) pinned = true;
    for (const c of d.children) stack.push(c);
  }
  return { ids, sum, pinned };
}

/**
 * What forks off trunk row `row`: drawn in lanes when small (or holding a pinned node), else one
 * cluster beside the row that counts what it stands for.
 */
export function placeSides(tree: DrawTree, sides: string[], parent: string, row: number, ctx: SideContext): void {
  const { ids, sum, pinned } = gather(tree, sides, ctx);
  if (!pinned && ids.length > ctx.opts.sideNodes) {
    const id = `cluster:${parent}`;
    const lane = takeLane(ctx.lanes, 0, row, row);
    ctx.add({ id, kind: 'cluster', draws: sides, ...sum, parent, children: [], lane, row, trunk: false });
    for (const d of ids) ctx.ownerOf.set(d, id);
    return;
  }
  // Each branch: its first-child line down one lane, its own forks in lanes further right.
  const work: Array<{ root: string; parent: string; row: number; lane: number }> = [];
  for (let k = sides.length - 1; k >= 0; k--) work.push({ root: sides[k]!, parent, row, lane: 0 });
  while (work.length > 0) {
    const b = work.pop()!;
    const line: DrawNode[] = [];
    for (let d: DrawNode | undefined = tree.nodes.get(b.root); d; d = tree.nodes.get(d.children[0] ?? '')) line.push(d);
    const lane = takeLane(ctx.lanes, b.lane, b.row, b.row + line.length - 1);
    const forks: typeof work = [];
    line.forEach((d, k) => {
      ctx.add({
        id: d.id,
        kind: d.kind,
        draws: [d.id],
        ...ctx.stat(d),
        parent: k === 0 ? b.parent : line[k - 1]!.id,
        children: [],
        lane,
        row: b.row + k,
        trunk: false,
      });
      ctx.ownerOf.set(d.id, d.id);
      for (const c of d.children.slice(1)) forks.push({ root: c, parent: d.id, row: b.row + k, lane });
    });
    for (let k = forks.length - 1; k >= 0; k--) work.push(forks[k]!);
  }
}
