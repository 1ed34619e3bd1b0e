/**
 * Tolerant session parser: lines → header, entries (file order), issues with physical line numbers.
 *
 * It follows pi-coding-agent's lenient loader (blank lines skipped, unparsable lines skipped,
 * the first parsed value is the header, v1/v2 migrated) and, where pi-agent-core's strict H3
 * loader would have refused a line, reports an issue instead of failing. It never throws.
 */
import { migrateToCurrentVersion, randomShortId } from './migrate';
import type { Entry, Issue, IssueKind, ParsedSession, SessionHeader } from './types';

/** One physical line of a file. `complete` is false only for a final line with no trailing '\n'. */
export interface RawLine {
  line: number;
  text: string;
  complete: boolean;
  offset?: number;
}

export interface ParseOptions {
  /** Id source for v1 entries (pi: first 8 chars of a random UUID). */
  newId?: () => string;
}

/**
 * How each IssueKind relates to what pi does with the same line.
 * - h3: what pi-agent-core 0.82.1 `JsonlSessionStorage.open` throws (SessionError code + reason;
 *   its "line N" counts non-blank lines only, ours is physical).
 * - ca: what pi-coding-agent 1.6.0 `SessionManager` does.
 */
export const ISSUE_KIND_TO_PI: Record<IssueKind, { h3: string; ca: string }> = {
  invalid_json: { h3: 'invalid_entry "is not valid JSON" (invalid_session for the header line)', ca: 'line skipped silently' },
  torn_last_line: { h3: 'invalid_entry "is not valid JSON"', ca: 'line skipped silently (a newline is appended on open)' },
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
  dangling_parent: { h3: 'invalid_session "Entry <id> not found" when a path walk reaches it', ca: 'orphan: walk stops, entry acts as a root' },
  cycle: { h3: 'path walk never returns', ca: 'path walk never returns' },
  missing_leaf_target: { h3: 'invalid_session "Entry <id> not found" from getLeafId()', ca: 'not applicable (leaf = last line)' },
  invalid_header: { h3: 'invalid_session "<reason>"', ca: 'only type "session" + string id are required' },
  unsupported_version: { h3: 'invalid_session "unsupported session version"', ca: 'versions >= 3 read as v3; format 4 unreadable' },
  line_too_long: { h3: 'loads', ca: 'loads' },
  byte_order_mark: { h3: 'invalid_session "first line is not a valid session header"', ca: '"Session file is not a valid pi session"' },
  extra_header: { h3: 'loaded as an entry if it passes the envelope checks', ca: 'ignored (every type "session" value is a header)' },
  malformed_entry: { h3: 'TypeError while building context', ca: 'TypeError while building context' },
  unknown_leaf: { h3: 'not_found "Entry <id> not found"', ca: 'context falls back to the last entry; getBranch() is empty' },
};

const LONG_LINE = 1024 * 1024;

type Rec = Record<string, any>;

function isPlainRecord(v: unknown): v is Rec {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return `a ${typeof v}`;
}

function isFormat4Header(v: unknown): boolean {
  return isPlainRecord(v) && (v.kind === 'header' || v.v === 4 || v.version === 4);
}

interface Parsed {
  line: number;
  value: unknown;
}

function checkHeader(header: Rec, line: number, issues: Issue[]): void {
  const bad = (message: string) => issues.push({ line, kind: 'invalid_header', message });
  const v = header.version;
  if (!(v === undefined || v === 1 || v === 2 || v === 3)) {
    issues.push({ line, kind: 'unsupported_version', message: `unsupported session version ${JSON.stringify(v)}; read as version 3` });
  }
  if (header.id === '') bad('session header is missing id');
  if (typeof header.timestamp !== 'string' || !header.timestamp) bad('session header is missing timestamp');
  if (typeof header.cwd !== 'string' || !header.cwd) bad('session header is missing cwd');
  if (header.parentSession !== undefined && typeof header.parentSession !== 'string') {
    bad('session header parentSession must be a string');
  }
  const m = header.metadata;
  if (m !== undefined && !isPlainRecord(m)) bad('session header metadata must be an object');
}

/** H3 envelope checks (§4.2), in pi's order. Returns the failing issue or null. */
function envelopeIssue(value: unknown, line: number): Issue | null {
  const fail = (kind: IssueKind, reason: string): Issue => ({ line, kind, message: `line ${line} ${reason}` });
  if (!isPlainRecord(value)) return fail('not_an_object', `is not a valid session entry (${describe(value)})`);
  if (typeof value.type !== 'string') return fail('missing_type', 'is missing entry type');
  if (typeof value.id !== 'string' || !value.id) return fail('missing_id', 'is missing entry id');
  if (value.parentId !== null && typeof value.parentId !== 'string') return fail('invalid_parent_id', 'has invalid parentId');
  if (typeof value.timestamp !== 'string' || !value.timestamp) return fail('missing_timestamp', 'is missing timestamp');
  if (value.type === 'leaf' && value.targetId !== null && typeof value.targetId !== 'string') {
    return fail('invalid_target_id', 'has invalid targetId');
  }
  return null;
}

function toEntry(raw: Rec, line: number): Entry {
  const entry: Entry = { id: raw.id, parentId: raw.parentId, type: raw.type, timestamp: raw.timestamp, line, raw };
  if (raw.type === 'message') {
    const message = raw.message;
    if (isPlainRecord(message) && typeof message.role === 'string') entry.role = message.role;
  } else if (raw.type === 'leaf' || raw.type === 'label' || raw.type === 'context_edit') {
    const t = raw.targetId;
    if (typeof t === 'string' || t === null) entry.targetId = t;
  }
  return entry;
}

export function parseSession(lines: Iterable<RawLine>, opts: ParseOptions = {}): ParsedSession {
  const issues: Issue[] = [];
  const values: Parsed[] = [];
  for (const raw of lines) {
    let text = raw.text;
    if (raw.line === 1 && text.charCodeAt(0) === 0xfeff) {
      text = text.slice(1);
      issues.push({ line: 1, kind: 'byte_order_mark', message: 'line 1 starts with a byte order mark; pi does not accept this file' });
    }
    if (text.length > LONG_LINE) {
      issues.push({ line: raw.line, kind: 'line_too_long', message: `line ${raw.line} is ${text.length} characters long` });
    }
    if (!text.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      issues.push(
        raw.complete
          ? { line: raw.line, kind: 'invalid_json', message: `line ${raw.line} is not valid JSON` }
          : { line: raw.line, kind: 'torn_last_line', message: `line ${raw.line} is incomplete (no final newline, not valid JSON)` },
      );
      continue;
    }
    if (!value) {
      // pi's loader drops falsy values (null, false, 0, "") before anything else looks at them.
      issues.push({ line: raw.line, kind: 'not_an_object', message: `line ${raw.line} is not a valid session entry (${JSON.stringify(value)})` });
      continue;
    }
    values.push({ line: raw.line, value });
  }

  const first = values[0];
  if (!first) {
    issues.push({ line: 1, kind: 'invalid_header', message: 'missing session header' });
    return { header: null, format: null, migrated: false, entries: [], issues, fatal: { code: 'invalid_session', message: 'missing session header' } };
  }
  if (isFormat4Header(first.value)) {
    const message = 'format 4 is not supported yet';
    issues.push({ line: first.line, kind: 'unsupported_version', message });
    return { header: null, format: 4, migrated: false, entries: [], issues, fatal: { code: 'unsupported_format', message } };
  }
  const headerValue = first.value;
  if (!isPlainRecord(headerValue) || headerValue.type !== 'session' || typeof headerValue.id !== 'string') {
    const message = `not a pi session: line ${first.line} is not a session header`;
    issues.push({ line: first.line, kind: 'invalid_header', message });
    return { header: null, format: null, migrated: false, entries: [], issues, fatal: { code: 'invalid_session', message } };
  }

  const version = headerValue.version;
  const format = version === undefined || version === null ? 1 : typeof version === 'number' ? version : null;
  checkHeader(headerValue, first.line, issues);
  const migrated = migrateToCurrentVersion(
    values.map((v) => v.value),
    opts.newId ?? randomShortId,
  );

  const entries: Entry[] = [];
  const seen = new Map<string, number>();
  for (let i = 1; i < values.length; i++) {
    const { line, value } = values[i]!;
    const problem = envelopeIssue(value, line);
    if (problem) {
      issues.push(problem);
      continue;
    }
    const raw = value as Rec;
    if (raw.type === 'session') {
      issues.push({ line, kind: 'extra_header', message: `line ${line} is a second session header; ignored` });
      continue;
    }
    const earlier = seen.get(raw.id);
    if (earlier !== undefined) {
      issues.push({ line, kind: 'duplicate_id', message: `line ${line} reuses id ${raw.id} from line ${earlier}; the later line wins` });
    }
    seen.set(raw.id, line);
    entries.push(toEntry(raw, line));
  }
  issues.sort((a, b) => a.line - b.line);
  return { header: headerValue as SessionHeader, format, migrated, entries, issues };
}

/** Splits on '\n'. A final piece without '\n' is an incomplete line (empty final piece ignored). */
export function splitLines(text: string): RawLine[] {
  const out: RawLine[] = [];
  let start = 0;
  let line = 1;
  while (start <= text.length) {
    const nl = text.indexOf('\n', start);
    if (nl === -1) {
      if (start < text.length) out.push({ line, text: text.slice(start), complete: false });
      break;
    }
    out.push({ line, text: text.slice(start, nl), complete: true });
    start = nl + 1;
    line++;
  }
  return out;
}

export function parseSessionText(text: string, opts: ParseOptions = {}): ParsedSession {
  return parseSession(splitLines(text), opts);
}
