import { previewText, type LazyPreviews } from '../../../model/previews';
import type { TreeIndex } from '../../../model/tree-index';
import type { OverviewTip } from './overview';

/**
 * The next (delta 1) or previous (-1) tip in tree order from a position in that order (a draw
 * node's `orderPos`), wrapping around. From a node that is not a tip, the next tip is the first
 * one after it.
 */
export function stepTip(
  tips: readonly OverviewTip[],
  posOf: (drawId: string) => number,
  from: number | null,
  delta: 1 | -1,
): OverviewTip | null {
  if (tips.length === 0) return null;
  if (from === null) return delta === 1 ? tips[0]! : tips[tips.length - 1]!;
  if (delta === 1) return tips.find((t) => posOf(t.drawId) > from) ?? tips[0]!;
  for (let i = tips.length - 1; i >= 0; i--) if (posOf(tips[i]!.drawId) < from) return tips[i]!;
  return tips[tips.length - 1]!;
}

/** How far up a tip the picker looks for a message with text (a tip may be a tool result or a label). */
const PREVIEW_WALK = 40;

/** The tip's last message preview: the tip's own, or its nearest message ancestor's; lazy previews count. */
export function tipPreview(index: TreeIndex, entryId: string, lazy: LazyPreviews = {}): string {
  let cur = index.indexOf.get(entryId) ?? -1;
  for (let steps = 0; cur !== -1 && steps < PREVIEW_WALK; steps++) {
    const e = index.entries[cur]!;
    const text = previewText(e, lazy);
    if (e.type === 'message' && text) return text;
    cur = index.parent[cur]!;
  }
  const own = index.entries[index.indexOf.get(entryId) ?? -1];
  return own ? previewText(own, lazy) : '';
}
