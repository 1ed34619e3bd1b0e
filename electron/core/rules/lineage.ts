/**
 * Where a forked session left its parent. PURE, iterative.
 *
 * Forks copy entries with their ids (CA createBranchedSession and H3 fork both keep ids; CA only
 * adds fresh label entries at the end), so the fork point is the entry nearest the child's current
 * leaf, on its ancestor chain, that the parent holds with the same id, type and timestamp.
 */
import { detectProfile } from './profile';
import { currentLeaf } from './leaf';
import { caWalk } from './path';
import { indexById } from './entries';
import type { Entry, ParsedSession } from '../types';

function sameEntry(a: Entry, b: Entry): boolean {
  return a.type === b.type && a.timestamp === b.timestamp;
}

export function forkPoint(child: ParsedSession, parent: ParsedSession): string | null {
  const childById = indexById(child);
  const parentById = indexById(parent);
  const leafId = currentLeaf(child, detectProfile(child), childById).leafId;
  const leaf = leafId === null ? undefined : childById.get(leafId);
  if (!leaf) return null;
  const chain = caWalk(leaf, child.entriesOf('ca')).entries;
  for (let i = chain.length - 1; i >= 0; i--) {
    const e = chain[i]!;
    const p = parentById.get(e.id);
    if (p && sameEntry(e, p)) return e.id;
  }
  return null;
}
