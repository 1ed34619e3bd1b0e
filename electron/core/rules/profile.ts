/**
 * Which of pi's readers a file was written for. Only the harness store (H3) writes `leaf` and
 * `active_tools_change` entries, `retainedTail` on compactions and header `metadata`; files
 * without any of these are read with the coding agent's rules (CA), which wrote them.
 */
import { compactionFacts } from './entry-fields';
import { H3_LOAD_ERRORS } from './parse';
import type { ParsedSession, Profile } from '../types';

export function detectProfile(s: ParsedSession): Profile {
  const metadata = s.header?.metadata;
  if (metadata !== undefined) return 'h3';
  // A line H3 would reject is no sign that H3 wrote the file.
  const typed = s.entriesOf('h3');
  if (typed.ofType('leaf').length > 0 || typed.ofType('active_tools_change').length > 0) return 'h3';
  return typed.ofType('compaction').some((e) => compactionFacts(e).hasRetainedTailKey) ? 'h3' : 'ca';
}

export interface OpenProblem {
  /** Physical line of the first problem. */
  line: number;
  message: string;
}

/**
 * Why the profile's pi reader cannot open the file at all, or null when it can.
 * CA (SessionManager.open): not a session (Canopy's `fatal`), or a byte order mark before the
 * header (JSON.parse fails on it, so the next value would have to be a header; Canopy refuses
 * without looking). H3 (JsonlSessionStorage.open): any line or header problem of H3_LOAD_ERRORS,
 * or a format other than 3; the problem reported is the first one H3 meets.
 */
export function openProblem(s: ParsedSession, profile: Profile): OpenProblem | null {
  const headerLine = s.headerLine ?? 1;
  if (s.fatal || !s.header) return { line: headerLine, message: s.fatal?.message ?? 'not a pi session' };
  if (profile === 'ca') {
    if (headerLine !== 1) return null;
    const bom = s.issues.find((i) => i.kind === 'byte_order_mark');
    return bom ? { line: 1, message: `${bom.message} ("Session file is not a valid pi session")` } : null;
  }
  let first: OpenProblem | null = null;
  for (const i of s.issues) {
    if (!H3_LOAD_ERRORS.has(i.kind)) continue;
    // H3 reads the header first: junk before it or a BOM on it is met before anything else.
    if (i.line < headerLine || i.kind === 'byte_order_mark') return { line: i.line, message: i.message };
    first ??= { line: i.line, message: i.message };
  }
  if (s.format !== 3) {
    const version = JSON.stringify(s.header.version) ?? 'missing';
    return { line: headerLine, message: `unsupported session version ${version} (pi-agent-core reads version 3 only)` };
  }
  return first;
}

/** Human-readable summary of the rules a profile applies (for UI captions). */
export const PROFILE_RULES: Record<
  Profile,
  { name: string; leaf: string; path: string; context: string; fork: string }
> = {
  ca: {
    name: 'pi-coding-agent 1.6.0 (SessionManager)',
    leaf: 'the last entry line in the file',
    path: 'every ancestor up to the root',
    context:
      'latest compaction, then the kept range from firstKeptEntryId (system messages left out), then everything after it; context edits applied',
    fork: 'path without label entries, re-chained; current labels re-created',
  },
  h3: {
    name: 'pi-agent-core 0.82.1 (harness JSONL store)',
    leaf: 'the last line, or its targetId when it is a leaf entry',
    path: 'up to the root or a compaction checkpoint (retainedTail, firstKeptEntryId)',
    context:
      'latest compaction with its retainedTail, or the kept range from firstKeptEntryId, then everything after it',
    fork: 'path cut at checkpoints, copied verbatim',
  },
};
