/**
 * Tolerant session parser: lines → header, entries (file order), issues with physical line numbers.
 *
 * It follows pi-coding-agent's lenient loader (blank lines skipped, unparsable lines skipped,
 * the first parsed value is the header, v1/v2 migrated) and, where pi-agent-core's strict H3
 * loader would have refused a line, reports an issue instead of failing. It never throws.
 * An entry H3 would refuse but CA reads stays in `entries`, marked `strictInvalid`; readers pick
 * their profile's entries through `entriesOf(profile)` (entries.ts). Entries CA
 * holds that Canopy still drops: see judgeEntry.
 */
import { plainSession } from './entries';
import { parseBounded, tooDeepMessage } from './json-depth';
import { lineId, migrateToCurrentVersion } from './migrate';
import { nulRunIssue, oversizedIssues, type OversizedFacts } from './line-damage';
import type { Entry, Issue, IssueKind, ParsedSession, SessionHeader } from '../types';

/** One physical line of a file. `complete` is false only for a final line with no trailing '\n'. */
export interface RawLine {
  line: number;
  text: string;
  complete: boolean;
  offset?: number;
  /** A line over the reader's size limit (`text` is ''): an issue, no value. */
  oversized?: OversizedFacts;
}

export interface ParseOptions {
  /** Id source for v1 entries (default: from the physical line, see migrate.ts lineId; pi: random). */
  newId?: () => string;
}

// pi's reading of each issue kind lives in issue-kinds.ts; re-exported for the parser's users.
export { H3_LOAD_ERRORS, ISSUE_KIND_TO_PI } from './issue-kinds';

/** Lines longer than this (in UTF-16 units) get an informational line_too_long issue. */
export const LONG_LINE = 1024 * 1024;

type Rec = Record<string, any>;

export function isPlainRecord(v: unknown): v is Rec {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return `a ${typeof v}`;
}

/**
 * A format 4 log's header (`{"v":4,"kind":"header",…}`). A `type: "session"` header is never one:
 * pi's coding agent reads `version: 4` there as v3 (4 >= 3, nothing to migrate), and so does Canopy.
 */
export function isFormat4Header(v: unknown): boolean {
  return isPlainRecord(v) && v.type !== 'session' && (v.kind === 'header' || v.v === 4 || v.version === 4);
}

export interface Parsed {
  line: number;
  value: unknown;
}

export function checkHeader(header: Rec, line: number, issues: Issue[]): void {
  const bad = (message: string) => issues.push({ line, kind: 'invalid_header', message });
  const v = header.version;
  if (!(v === undefined || v === 1 || v === 2 || v === 3)) {
    issues.push({
      line,
      kind: 'unsupported_version',
      message: `unsupported session version ${JSON.stringify(v)}; read as version 3`,
    });
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
export function envelopeIssue(value: unknown, line: number): Issue | null {
  const fail = (kind: IssueKind, reason: string): Issue => ({ line, kind, message: `line ${line} ${reason}` });
  if (!isPlainRecord(value)) return fail('not_an_object', `is not a valid session entry (${describe(value)})`);
  if (typeof value.type !== 'string') return fail('missing_type', 'is missing entry type');
  if (typeof value.id !== 'string' || !value.id) return fail('missing_id', 'is missing entry id');
  if (value.parentId !== null && typeof value.parentId !== 'string')
    return fail('invalid_parent_id', 'has invalid parentId');
  if (typeof value.timestamp !== 'string' || !value.timestamp) return fail('missing_timestamp', 'is missing timestamp');
  if (value.type === 'leaf' && value.targetId !== null && typeof value.targetId !== 'string') {
    return fail('invalid_target_id', 'has invalid targetId');
  }
  return null;
}

function toEntry(raw: Rec, line: number, strictInvalid?: IssueKind): Entry {
  if (strictInvalid) return toLenientEntry(raw, line, strictInvalid);
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

/**
 * Step 1 for one physical line, the same for every line of every file: BOM and length notes,
 * blank lines skipped, JSON parsed, falsy values dropped (pi's loader does so before anything
 * else). Returns the parsed value, or undefined when the line contributes no value.
 */
export function lineValue(raw: RawLine, issues: Issue[]): unknown {
  if (raw.oversized) {
    issues.push(...oversizedIssues(raw.line, raw.oversized));
    return undefined;
  }
  let text = raw.text;
  if (raw.line === 1 && text.charCodeAt(0) === 0xfeff) {
    text = text.slice(1);
    issues.push({
      line: 1,
      kind: 'byte_order_mark',
      message: 'line 1 starts with a byte order mark; pi does not accept this file',
    });
  }
  if (text.length > LONG_LINE) {
    issues.push({
      line: raw.line,
      kind: 'line_too_long',
      message: `line ${raw.line} is ${text.length} characters long`,
    });
  }
  if (!text.trim()) return undefined;
  let value: unknown;
  try {
    const parsed = parseBounded(text);
    value = parsed.value;
    if (parsed.tooDeep) issues.push({ line: raw.line, kind: 'too_deep', message: tooDeepMessage(raw.line) });
  } catch {
    issues.push(
      raw.complete
        ? { line: raw.line, kind: 'invalid_json', message: `line ${raw.line} is not valid JSON` }
        : {
            line: raw.line,
            kind: 'torn_last_line',
            message: `line ${raw.line} is incomplete (no final newline, not valid JSON)`,
          },
    );
    const nul = nulRunIssue(raw.line, text);
    if (nul) issues.push(nul);
    return undefined;
  }
  if (!value) {
    issues.push({
      line: raw.line,
      kind: 'not_an_object',
      message: `line ${raw.line} is not a valid session entry (${JSON.stringify(value)})`,
    });
    return undefined;
  }
  return value;
}

export const MISSING_HEADER = 'missing session header';

/** What the first value of a file makes of it. */
export type HeaderDecision =
  | { ok: false; format: number | null; issue: Issue; fatal: NonNullable<ParsedSession['fatal']> }
  | { ok: true; header: SessionHeader; format: number | null; needsMigration: boolean };

export function decideHeader(value: unknown, line: number): HeaderDecision {
  if (isFormat4Header(value)) {
    const message = 'format 4 is not supported yet';
    return {
      ok: false,
      format: 4,
      issue: { line, kind: 'unsupported_version', message },
      fatal: { code: 'unsupported_format', message },
    };
  }
  if (!isPlainRecord(value) || value.type !== 'session' || typeof value.id !== 'string') {
    const message = `not a pi session: line ${line} is not a session header`;
    return {
      ok: false,
      format: null,
      issue: { line, kind: 'invalid_header', message },
      fatal: { code: 'invalid_session', message },
    };
  }
  const version = value.version;
  const format = version === undefined || version === null ? 1 : typeof version === 'number' ? version : null;
  // migrateToCurrentVersion's own test, loose comparison included.
  const needsMigration = !(((value.version ?? 1) as number) >= 3);
  return { ok: true, header: value as SessionHeader, format, needsMigration };
}

/**
 * Step 2 for one entry value (after the header): envelope checks, a second header, duplicate ids.
 * `earlierLine` gives the line of an earlier entry with the same id. True when it becomes an entry
 * under H3's rules: a line failing the envelope check is rejected here, although pi's CA reader
 * keeps it (parseSession keeps it too, marked: see judgeEntry).
 */
export function acceptEntry(
  value: unknown,
  line: number,
  issues: Issue[],
  earlierLine: (id: string) => number | undefined,
): value is Rec {
  const problem = envelopeIssue(value, line);
  if (problem) {
    issues.push(problem);
    return false;
  }
  const raw = value as Rec;
  if (raw.type === 'session') {
    issues.push({ line, kind: 'extra_header', message: `line ${line} is a second session header; ignored` });
    return false;
  }
  const earlier = earlierLine(raw.id);
  if (earlier !== undefined) issues.push(duplicateIssue(line, raw.id, earlier));
  return true;
}

/** What becomes of one entry value: dropped, or an entry (marked when H3 would reject the line). */
export type EntryVerdict = { keep: false } | { keep: true; strictInvalid?: IssueKind };

const DROP: EntryVerdict = { keep: false };
const KEEP: EntryVerdict = { keep: true };

/**
 * Step 2 as pi's CA reader sees it (parseSession uses this; acceptEntry is the H3-strict variant):
 * an object that fails H3's envelope check is still an entry when it has a usable id, marked
 * `strictInvalid` with the issue kind. Issues as acceptEntry reports them (plus duplicate_id
 * when such a kept line reuses an id).
 *
 * Divergences from CA, on purpose (pi's behaviour there is an accident of `Map` keys):
 * - Values without a non-empty string id (objects with no id, a numeric or empty id; arrays,
 *   numbers, strings, true) are dropped. CA keeps them keyed `undefined` (or the odd key): such an entry is never a
 *   parent (a parentId lookup is by string), but as the LAST line it makes CA's leaf id
 *   undefined (getBranch() empty, /clone "nothing to clone", the context built from that entry's
 *   own chain), and as a `label` entry it still sets a label. Canopy takes the last entry with
 *   an id as the leaf and ignores such labels.
 * - A truthy non-string parentId (e.g. 7) only finds an entry in CA when another line has that
 *   very non-string id; those lines are dropped here, so it always acts as a missing parent.
 * - A second type "session" line whose envelope passes: H3 loads it as an ordinary entry (it can
 *   be on a path and a clone copies it); Canopy drops it for both profiles, as CA does.
 */
export function judgeEntry(
  value: unknown,
  line: number,
  issues: Issue[],
  earlierLine: (id: string) => number | undefined,
): EntryVerdict {
  const problem = envelopeIssue(value, line);
  if (problem) {
    issues.push(problem);
    // CA never holds a type "session" line as an entry (its index and getEntries skip them).
    if (!isPlainRecord(value) || typeof value.id !== 'string' || !value.id || value.type === 'session') return DROP;
  } else if ((value as Rec).type === 'session') {
    issues.push({ line, kind: 'extra_header', message: `line ${line} is a second session header; ignored` });
    return DROP;
  }
  const id = (value as Rec).id as string;
  const earlier = earlierLine(id);
  if (earlier !== undefined) issues.push(duplicateIssue(line, id, earlier));
  return problem ? { keep: true, strictInvalid: problem.kind } : KEEP;
}

/** An entry H3 rejects but CA reads: envelope fields normalised to their declared types. */
function toLenientEntry(raw: Rec, line: number, strictInvalid: IssueKind): Entry {
  const clean: Rec = {
    id: raw.id,
    // Any other parentId ends CA's walks as null does: a falsy one is "no parent", a truthy one
    // names no entry (see judgeEntry). Only a fork "before" tells them apart (fork.ts reads raw).
    parentId: typeof raw.parentId === 'string' ? raw.parentId : null,
    type: typeof raw.type === 'string' ? raw.type : '',
    timestamp: typeof raw.timestamp === 'string' ? raw.timestamp : '',
    message: raw.message,
    targetId: raw.targetId,
  };
  const entry = toEntry(clean, line);
  entry.raw = raw;
  entry.strictInvalid = strictInvalid;
  return entry;
}

export function duplicateIssue(line: number, id: string, earlier: number): Issue {
  return {
    line,
    kind: 'duplicate_id',
    message: `line ${line} reuses id ${id} from line ${earlier}; the later line wins`,
  };
}

export function parseSession(lines: Iterable<RawLine>, opts: ParseOptions = {}): ParsedSession {
  const issues: Issue[] = [];
  const values: Parsed[] = [];
  for (const raw of lines) {
    const value = lineValue(raw, issues);
    if (value !== undefined) values.push({ line: raw.line, value });
  }
  return sessionOfValues(values, issues, opts);
}

/**
 * Steps 2 on of parseSession, for lines already parsed: `values[k]` is line `line`'s JSON value
 * (what JSON.parse gave, or a value equal to it). The fork preview reads its plan back this way.
 */
export function sessionOfValues(values: Parsed[], issues: Issue[] = [], opts: ParseOptions = {}): ParsedSession {
  const first = values[0];
  if (!first) {
    issues.push({ line: 1, kind: 'invalid_header', message: MISSING_HEADER });
    return plainSession({
      header: null,
      format: null,
      migrated: false,
      entries: [],
      issues,
      fatal: { code: 'invalid_session', message: MISSING_HEADER },
    });
  }
  const decision = decideHeader(first.value, first.line);
  if (!decision.ok) {
    issues.push(decision.issue);
    return plainSession({
      header: null,
      format: decision.format,
      migrated: false,
      entries: [],
      issues,
      fatal: decision.fatal,
    });
  }
  const headerValue = first.value as Rec;
  checkHeader(headerValue, first.line, issues);
  const migrated = migrateToCurrentVersion(
    values.map((v) => v.value),
    opts.newId ?? ((index) => lineId(values[index]!.line)),
  );

  const entries: Entry[] = [];
  const seen = new Map<string, number>();
  for (let i = 1; i < values.length; i++) {
    const { line, value } = values[i]!;
    const verdict = judgeEntry(value, line, issues, (id) => seen.get(id));
    if (!verdict.keep) continue;
    const raw = value as Rec;
    seen.set(raw.id as string, line);
    entries.push(toEntry(raw, line, verdict.strictInvalid));
  }
  issues.sort((a, b) => a.line - b.line);
  return plainSession({
    header: headerValue as SessionHeader,
    format: decision.format,
    migrated,
    entries,
    issues,
    headerLine: first.line,
  });
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
