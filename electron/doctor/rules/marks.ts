/**
 * The damage old pi versions left in session files, each named with the pi versions that wrote it
 * and told in the words of pi's own changelog (pi-coding-agent CHANGELOG.md, the release that fixed
 * it). PURE.
 */

export type MarkKind =
  | 'glued_line'
  | 'lost_compaction_boundary'
  | 'missing_parent'
  | 'orphan_tool_calls'
  | 'kept_truncated_results'
  | 'huge_edit_diff'
  | 'several_sessions';

export interface PiWords {
  /** The pi versions that wrote this damage. */
  versions: string;
  /** The issue or pull request in earendil-works/pi. */
  issue: string;
  /** What happened, as pi's changelog says it. */
  words: string;
}

export const PI_WORDS: Record<MarkKind, PiWords> = {
  glued_line: {
    versions: 'pi ≤ 0.84.3',
    issue: '#8345',
    words: 'resumed sessions corrupted the next appended entry when their JSONL file lacked a trailing newline',
  },
  lost_compaction_boundary: {
    versions: 'pi ≤ 0.84.x',
    issue: '#8990',
    words: 'session forks lost their compaction boundary (firstKeptEntryId named a label the fork left out)',
  },
  missing_parent: {
    versions: 'pi ≤ 1.4.x',
    issue: '#11460',
    words:
      'failed session writes left entries in memory that were absent from disk, so later entries pointed to missing parents and resumed sessions lost earlier history and tools',
  },
  orphan_tool_calls: {
    versions: 'pi ≤ 1.5.x',
    issue: '#9986',
    words:
      'pressing Esc during a batch of tool calls left the calls that had not started yet without a result in the session',
  },
  kept_truncated_results: {
    versions: 'pi ≤ 1.3.x',
    issue: '#11227',
    words:
      'after recovery from a response cut off at the output limit, the truncated tool call was omitted but its tool results were kept, so providers rejected every later request',
  },
  huge_edit_diff: {
    versions: 'pi ≤ 1.5.x',
    issue: '#8036',
    words:
      'pi crashed with "RangeError: Maximum call stack size exceeded" rendering a very large edit diff, and again on every resume of that session',
  },
  several_sessions: {
    versions: 'pi before its /new fix',
    issue: '/new',
    words: 'one file could hold two or more sessions, each starting with its own session header line',
  },
};

/** One piece of damage found in a file. */
export interface Mark {
  kind: MarkKind;
  /** 1-based physical line in the source file. */
  line: number;
  entryId?: string;
  /** What Canopy saw on that line, in a sentence. */
  found: string;
  /** What the repaired file does about it; null when nothing is changed (said why in `found`). */
  repair: string | null;
}

/** A one-line explanation of a mark: what was found, then pi's words and versions. */
export function explain(mark: Mark): string {
  const w = PI_WORDS[mark.kind];
  return `${mark.found} — ${w.versions} (${w.issue}): ${w.words}`;
}
