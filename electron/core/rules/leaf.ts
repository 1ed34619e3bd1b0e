/**
 * The current leaf under each profile.
 * CA (pi-coding-agent SessionManager._buildIndex): the id of the last entry line, whatever its type.
 * H3 (pi-agent-core leafIdAfterEntry): after each entry the leaf becomes `targetId` for a `leaf`
 * entry and the entry's own id otherwise, so only the last entry matters.
 */
import { entryTargetId } from './entry-fields';
import { lastEntry } from './entries';
import type { Entry, Issue, ParsedSession, Profile } from '../types';

export function leafIdAfterEntry(e: Entry): string | null {
  if (e.type !== 'leaf') return e.id;
  return entryTargetId(e) ?? null;
}

export function caLeafId(s: ParsedSession): string | null {
  const last = lastEntry(s, 'ca');
  return last ? last.id : null;
}

/** Over H3's entries only: a line H3 would reject never moves its leaf. */
export function h3LeafId(s: ParsedSession): string | null {
  const last = lastEntry(s, 'h3');
  return last ? leafIdAfterEntry(last) : null;
}

export interface LeafResult {
  leafId: string | null;
  issues: Issue[];
}

/** The profile's current leaf; for H3 a `leaf` entry naming a missing id is reported. */
export function currentLeaf(s: ParsedSession, profile: Profile, byId: ReadonlyMap<string, Entry>): LeafResult {
  if (profile === 'ca') return { leafId: caLeafId(s), issues: [] };
  const leafId = h3LeafId(s);
  const issues: Issue[] = [];
  if (leafId !== null && !byId.has(leafId)) {
    const last = lastEntry(s, 'h3')!;
    issues.push({
      line: last.line,
      kind: 'missing_leaf_target',
      message: `leaf entry ${last.id} points at missing entry ${leafId}`,
    });
  }
  return { leafId, issues };
}
