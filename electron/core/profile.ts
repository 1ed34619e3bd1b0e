/**
 * Which of pi's readers a file was written for. Only the harness store (H3) writes `leaf` and
 * `active_tools_change` entries, `retainedTail` on compactions and header `metadata`; files
 * without any of these are read with the coding agent's rules (CA), which wrote them.
 */
import { compactionFacts } from './entry-fields';
import type { ParsedSession, Profile } from './types';

export function detectProfile(s: ParsedSession): Profile {
  const metadata = s.header?.metadata;
  if (metadata !== undefined) return 'h3';
  for (const e of s.entries) {
    if (e.type === 'leaf' || e.type === 'active_tools_change') return 'h3';
    if (e.type === 'compaction' && compactionFacts(e).hasRetainedTailKey) return 'h3';
  }
  return 'ca';
}

/** Human-readable summary of the rules a profile applies (for UI captions). */
export const PROFILE_RULES: Record<Profile, { name: string; leaf: string; path: string; context: string; fork: string }> = {
  ca: {
    name: 'pi-coding-agent 1.6.0 (SessionManager)',
    leaf: 'the last entry line in the file',
    path: 'every ancestor up to the root',
    context: 'latest compaction, then the kept range from firstKeptEntryId (system messages left out), then everything after it; context edits applied',
    fork: 'path without label entries, re-chained; current labels re-created',
  },
  h3: {
    name: 'pi-agent-core 0.82.1 (harness JSONL store)',
    leaf: 'the last line, or its targetId when it is a leaf entry',
    path: 'up to the root or a compaction checkpoint (retainedTail, firstKeptEntryId)',
    context: 'latest compaction with its retainedTail, or the kept range from firstKeptEntryId, then everything after it',
    fork: 'path cut at checkpoints, copied verbatim',
  },
};
