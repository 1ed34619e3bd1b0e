import type { LineageDto, LineageLinkDto } from '../lib/shared';

export interface LineageMarkers {
  /** Entry id of this session → the child sessions forked there. */
  forksAt: Map<string, LineageLinkDto[]>;
  /** Where this session left its parent (an entry both files hold). */
  parentAt: { entryId: string; link: LineageLinkDto } | null;
  /** Children with no fork point in this file (e.g. a fork before the first prompt). */
  unplaced: LineageLinkDto[];
}

const EMPTY: LineageMarkers = { forksAt: new Map(), parentAt: null, unplaced: [] };

export function lineageMarkers(lineage: LineageDto | null): LineageMarkers {
  if (!lineage) return EMPTY;
  const forksAt = new Map<string, LineageLinkDto[]>();
  const unplaced: LineageLinkDto[] = [];
  for (const child of lineage.children) {
    const at = child.forkPointEntryId;
    if (at === null) {
      unplaced.push(child);
      continue;
    }
    const list = forksAt.get(at);
    if (list) list.push(child);
    else forksAt.set(at, [child]);
  }
  const p = lineage.parent;
  const parentAt = p && p.forkPointEntryId !== null ? { entryId: p.forkPointEntryId, link: p } : null;
  return { forksAt, parentAt, unplaced };
}

/** A short, readable name for a linked session: its file name without the timestamp prefix. */
export function linkName(link: LineageLinkDto, title?: string | null): string {
  if (title) return title;
  const m = /^[\dT:.-]+Z_(.+)\.jsonl$/.exec(link.fileName);
  return m ? m[1]!.slice(0, 8) : link.fileName;
}
