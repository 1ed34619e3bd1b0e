import type { LazyPreviews } from './previews';
import { previewText } from './previews';
import type { TreeIndex } from './tree-index';

/**
 * What a branch is, told the same way everywhere (the tip picker, the compare picker, clusters,
 * fork rows): where it branches off (the last user prompt before its branch point) and its first
 * new prompt (the first user prompt after it). PURE.
 */
export interface BranchLabel {
  /** The last user prompt at or before the branch point ('' for a branch from the root). */
  after: string;
  /** The first user prompt after the branch point on the way to the tip ('' when none yet). */
  first: string;
}

/** How far a label walks up from a tip (a branch longer than this names its nearest prompts). */
const WALK = 5000;
const CLIP = 80;

const clip = (s: string) => (s.length > CLIP ? `${s.slice(0, CLIP - 1)}…` : s);
const isPrompt = (index: TreeIndex, i: number) => {
  const e = index.entries[i]!;
  return e.type === 'message' && e.role === 'user';
};
const kids = (index: TreeIndex, i: number) => index.childStart[i + 1]! - index.childStart[i]!;

export function branchLabel(index: TreeIndex, tipId: string, lazy: LazyPreviews = {}): BranchLabel {
  let cur = index.indexOf.get(tipId) ?? -1;
  let first = '';
  let steps = 0;
  // Up to the branch point (the first ancestor with another child), noting the earliest prompt.
  for (; cur !== -1 && steps < WALK; steps++) {
    const p = index.parent[cur]!;
    if (isPrompt(index, cur)) first = previewText(index.entries[cur]!, lazy) || first;
    if (p === -1 || kids(index, p) > 1) {
      cur = p;
      break;
    }
    cur = p;
  }
  let after = '';
  for (; cur !== -1 && steps < WALK; steps++, cur = index.parent[cur]!)
    if (isPrompt(index, cur)) {
      after = previewText(index.entries[cur]!, lazy);
      if (after) break;
    }
  return { after: clip(after), first: clip(first) };
}

/** One line: `first new prompt · after “where it branches off”`, whichever is known. */
export function branchText(label: BranchLabel): string {
  const after = label.after ? `after “${label.after}”` : '';
  return [label.first, after].filter(Boolean).join(' · ');
}
