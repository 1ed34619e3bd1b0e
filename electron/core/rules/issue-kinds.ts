/** What pi does with each kind of problem Canopy reports on a line (the parser's issue kinds). */
import type { IssueKind } from '../types';

/**
 * How each IssueKind relates to what pi does with the same line.
 * - h3: what pi-agent-core 0.82.1 `JsonlSessionStorage.open` throws (SessionError code + reason;
 *   its "line N" counts non-blank lines only, ours is physical).
 * - ca: what pi-coding-agent 1.6.0 `SessionManager` does.
 */
export const ISSUE_KIND_TO_PI: Record<IssueKind, { h3: string; ca: string }> = {
  invalid_json: {
    h3: 'invalid_entry "is not valid JSON" (invalid_session for the header line)',
    ca: 'line skipped silently',
  },
  torn_last_line: {
    h3: 'invalid_entry "is not valid JSON"',
    ca: 'line skipped silently (a newline is appended on open)',
  },
  not_an_object: {
    h3: 'invalid_entry "is not a valid session entry" (arrays: "is missing entry type")',
    ca: 'null/false/0/"" skipped; other values kept as bogus entries',
  },
  missing_type: { h3: 'invalid_entry "is missing entry type"', ca: 'kept as an entry without type' },
  missing_id: { h3: 'invalid_entry "is missing entry id"', ca: 'kept; indexed under `undefined`' },
  invalid_parent_id: { h3: 'invalid_entry "has invalid parentId"', ca: 'kept; a falsy parentId acts as a root' },
  missing_timestamp: { h3: 'invalid_entry "is missing timestamp"', ca: 'kept' },
  invalid_target_id: { h3: 'invalid_entry "has invalid targetId"', ca: 'kept (CA does not know leaf entries)' },
  duplicate_id: { h3: 'loads; later line wins in the id index', ca: 'loads; later line wins in the id index' },
  dangling_parent: {
    h3: 'invalid_session "Entry <id> not found" when a path walk reaches it',
    ca: 'orphan: walk stops, entry acts as a root',
  },
  cycle: { h3: 'path walk never returns', ca: 'path walk never returns' },
  missing_leaf_target: {
    h3: 'invalid_session "Entry <id> not found" from getLeafId()',
    ca: 'not applicable (leaf = last line)',
  },
  invalid_header: { h3: 'invalid_session "<reason>"', ca: 'only type "session" + string id are required' },
  unsupported_version: {
    h3: 'invalid_session "unsupported session version"',
    ca: 'versions >= 3 read as v3; format 4 unreadable',
  },
  line_too_long: { h3: 'loads', ca: 'loads' },
  byte_order_mark: {
    h3: 'invalid_session "first line is not a valid session header"',
    ca: '"Session file is not a valid pi session"',
  },
  extra_header: {
    h3: 'loaded as an entry if it passes the envelope checks',
    ca: 'ignored (every type "session" value is a header)',
  },
  malformed_entry: { h3: 'TypeError while building context', ca: 'TypeError while building context' },
  too_deep: {
    h3: 'loads; JSON.stringify of the value overflows the stack',
    ca: 'loads; JSON.stringify of the value overflows the stack',
  },
  unknown_leaf: {
    h3: 'not_found "Entry <id> not found"',
    ca: 'context falls back to the last entry; getBranch() is empty',
  },
  line_over_limit: {
    h3: 'the file cannot be read (V8 cannot make a string that long)',
    ca: 'the file cannot be read (V8 cannot make a string that long)',
  },
  nul_bytes: { h3: 'invalid_entry "is not valid JSON"', ca: 'line skipped silently' },
};

/**
 * Issue kinds with which pi-agent-core 0.82.1's loader (JsonlSessionStorage.open) refuses the
 * whole file (invalid_session / invalid_entry). Besides these it refuses every format but 3.
 */
export const H3_LOAD_ERRORS: ReadonlySet<IssueKind> = new Set<IssueKind>([
  'invalid_json',
  'torn_last_line',
  'not_an_object',
  'missing_type',
  'missing_id',
  'invalid_parent_id',
  'missing_timestamp',
  'invalid_target_id',
  'invalid_header',
  'unsupported_version',
  'byte_order_mark',
  'line_over_limit',
]);
