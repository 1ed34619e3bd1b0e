import type { EntryNodeDto } from '../../lib/shared';
import type { TreeIndex } from '../../model/tree-index';

/** Another branch leaving a transcript row: its first entry and the newest tip under it. */
export interface OtherBranch {
  id: string;
  tipId: string;
  preview: string;
}

/** One row of the transcript: an entry of the path from the root to the leaf, in order. */
export interface TranscriptRow {
  id: string;
  entry: EntryNodeDto;
  /** 'meta': settings, labels, names… (one line); 'compaction': a checkpoint, marked inline. */
  kind: 'message' | 'compaction' | 'summary' | 'meta';
  /** Children of this entry that are not on the path (a branch point offers them). */
  branches: OtherBranch[];
}

const META_TYPES = new Set([
  'model_change',
  'thinking_level_change',
  'active_tools_change',
  'label',
  'session_info',
  'leaf',
  'custom',
  'context_edit',
]);

function kindOf(entry: EntryNodeDto): TranscriptRow['kind'] {
  if (entry.type === 'compaction') return 'compaction';
  if (entry.type === 'branch_summary') return 'summary';
  if (META_TYPES.has(entry.type)) return 'meta';
  return 'message';
}

/** The newest leaf under `start`: always the child written last, as pi's /tree lists a branch's tip. */
export function newestTip(index: TreeIndex, start: number): number {
  let cur = start;
  for (;;) {
    const s = index.childStart[cur]!;
    const e = index.childStart[cur + 1]!;
    if (e <= s) return cur;
    let best = index.childList[s]!;
    for (let k = s + 1; k < e; k++) {
      const c = index.childList[k]!;
      if (index.entries[c]!.line > index.entries[best]!.line) best = c;
    }
    cur = best;
  }
}

/**
 * The path from the root to `leafId` (the session's leaf or a what-if leaf), each entry with the
 * branches that leave it. Linear in the path's length plus the branch points' children.
 */
export function transcriptRows(index: TreeIndex, leafId: string | null): TranscriptRow[] {
  const leaf = leafId === null ? -1 : (index.indexOf.get(leafId) ?? -1);
  const path: number[] = [];
  for (let cur = leaf; cur !== -1 && path.length <= index.size; cur = index.parent[cur]!) path.push(cur);
  path.reverse();
  return path.map((i, k) => {
    const entry = index.entries[i]!;
    const next = path[k + 1];
    const branches: OtherBranch[] = [];
    for (let c = index.childStart[i]!; c < index.childStart[i + 1]!; c++) {
      const child = index.childList[c]!;
      if (child === next) continue;
      const tip = newestTip(index, child);
      branches.push({ id: index.ids[child]!, tipId: index.ids[tip]!, preview: index.entries[child]!.preview });
    }
    return { id: index.ids[i]!, entry, kind: kindOf(entry), branches };
  });
}

/** How many rows arrived after `lastSeenId` (the leaf the user saw before following paused). */
export function unreadCount(rows: readonly TranscriptRow[], lastSeenId: string | null): number {
  if (lastSeenId === null) return 0;
  const at = rows.findIndex((r) => r.id === lastSeenId);
  return at === -1 ? 0 : rows.length - 1 - at;
}

/** Entries on the path from `lastSeenId` (excluded) down to the leaf; 0 when it is not an ancestor. */
export function unreadSince(index: TreeIndex, leafId: string | null, lastSeenId: string): number {
  const seen = index.indexOf.get(lastSeenId);
  let n = 0;
  for (let cur = leafId === null ? -1 : (index.indexOf.get(leafId) ?? -1); cur !== -1 && n <= index.size; n++) {
    if (cur === seen) return n;
    cur = index.parent[cur]!;
  }
  return 0;
}
