/**
 * A session's summary for the listing (name, first prompt, counts, last activity): one streaming
 * pass over the file, kept resumable, so a file pi appends to is summarised again from where the
 * last pass ended (only the appended bytes are read), not from its first line.
 */
import { parseSession } from '../core';
import { CanopyError } from '../shared/errors';
import { decodeBytes, scanLines } from '../storage/line-scan';

export interface SessionSummary {
  /** Last `session_info` name in file order, trimmed; null when none or cleared. */
  name: string | null;
  /** Text of the first user message (text blocks joined by a space), cut to 500 characters. */
  firstMessage: string | null;
  /** Set when it differs from firstMessage: the first user message whose entry time is not before the header's (a fork's own: copied ones are older). */
  ownFirstMessage?: string | null;
  /** A fork's branch point: the last user message copied from its parent (older than the header); absent when none was. */
  branchedAfter?: string;
  /** Parsed entry lines after the header. */
  entryCount: number;
  /** `message` entries, every branch. */
  messageCount: number;
  /** Latest user/assistant message time (ISO), else the header time, else the file mtime. */
  lastActivity: string | null;
  /** Damage this pass sees: unreadable lines, header problems, entries without a string id (opening lists them all). */
  issueCount: number;
}

const PREVIEW_CHARS = 500;
const CR = 0x0d;

type Rec = Record<string, unknown>;

function isRecord(v: unknown): v is Rec {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** pi's extractTextContent: a string content, or its text blocks joined by a space. */
function messageText(message: Rec): string {
  const content = message.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((b): b is Rec => isRecord(b) && b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join(' ');
}

/** What the pass has counted up to some line. */
interface Tally {
  header: Rec | null;
  name: string | null;
  firstMessage: string | null;
  ownFirstMessage: string | null;
  branchedAfter: string | null;
  headerMs: number;
  entryCount: number;
  messageCount: number;
  lastActivity: number;
  issueCount: number;
}

const emptyTally = (): Tally => ({
  header: null,
  name: null,
  firstMessage: null,
  ownFirstMessage: null,
  branchedAfter: null,
  headerMs: Number.NaN,
  entryCount: 0,
  messageCount: 0,
  lastActivity: 0,
  issueCount: 0,
});

/** Counts one line into `t`. */
function tallyLine(t: Tally, text: string, lineNo: number, complete: boolean): void {
  if (!text.trim()) return;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    t.issueCount++;
    return; // pi's listing skips unparsable lines too
  }
  if (!isRecord(value)) {
    t.issueCount++;
    return;
  }
  if (t.header === null) {
    const parsed = parseSession([{ line: lineNo, text, complete }]);
    if (parsed.fatal) throw new CanopyError(parsed.fatal.code, parsed.fatal.message);
    t.issueCount += parsed.issues.length;
    t.header = value;
    t.headerMs = typeof value.timestamp === 'string' ? Date.parse(value.timestamp) : Number.NaN;
    return;
  }
  if (typeof value.id !== 'string' || !value.id) t.issueCount++;
  t.entryCount++;
  if (value.type === 'session_info') {
    t.name = typeof value.name === 'string' && value.name.trim() ? value.name.trim() : null;
  }
  if (value.type !== 'message') return;
  t.messageCount++;
  const message = value.message;
  if (!isRecord(message)) return;
  if (message.role !== 'user' && message.role !== 'assistant') return;
  const time = typeof message.timestamp === 'number' ? message.timestamp : Date.parse(String(value.timestamp));
  if (!Number.isNaN(time)) t.lastActivity = Math.max(t.lastActivity, time);
  // Once the first message and the fork's own are known, later user messages change nothing.
  if (message.role !== 'user' || (t.firstMessage !== null && t.ownFirstMessage !== null)) return;
  const m = messageText(message);
  if (!m) return;
  const cut = m.length > PREVIEW_CHARS ? `${m.slice(0, PREVIEW_CHARS)}…` : m;
  if (t.firstMessage === null) t.firstMessage = cut;
  // Entries copied from a fork's parent are older than its header: the last of them is where it branched.
  if (Date.parse(String(value.timestamp)) < t.headerMs) t.branchedAfter = cut;
  else t.ownFirstMessage = cut;
}

function summaryOf(t: Tally, path: string, mtimeMs: number): SessionSummary {
  const head = t.header;
  if (head === null) throw new CanopyError('invalid_session', `not a pi session: ${path} has no session header`);
  const headerTime = typeof head.timestamp === 'string' ? Date.parse(head.timestamp) : Number.NaN;
  const activity = t.lastActivity > 0 ? t.lastActivity : !Number.isNaN(headerTime) ? headerTime : mtimeMs;
  const { name, firstMessage, ownFirstMessage, branchedAfter, entryCount, messageCount, issueCount } = t;
  return {
    name,
    firstMessage,
    ...(ownFirstMessage !== firstMessage ? { ownFirstMessage } : {}),
    ...(branchedAfter !== null ? { branchedAfter } : {}),
    entryCount,
    messageCount,
    lastActivity: new Date(activity).toISOString(),
    issueCount,
  };
}

/** Where a file's last pass ended: the tally of its complete lines, and the next line's offset and number. */
interface Resume {
  ino: number;
  endOffset: number;
  nextLine: number;
  tally: Tally;
}

/** Where each summarised file's pass ended, bounded (oldest dropped first). */
export class SummaryResumes {
  private readonly byPath = new Map<string, Resume>();

  constructor(private readonly max: number) {}

  get(path: string): Resume | undefined {
    return this.byPath.get(path);
  }

  set(path: string, r: Resume): void {
    this.byPath.delete(path);
    this.byPath.set(path, r);
    if (this.byPath.size > this.max) this.byPath.delete(this.byPath.keys().next().value as string);
  }

  delete(path: string): void {
    this.byPath.delete(path);
  }
}

/**
 * The summary of `path` (size and mtime as stat'ed): from where `resumes` says its last pass ended
 * when the file only grew (same inode, not shorter), else from its first line. The lines the scan
 * reads are counted once; a final line without '\n' is counted into this answer only (pi may still
 * be writing it).
 */
export async function computeSummary(
  path: string,
  facts: { size: number; mtimeMs: number; ino: number },
  resumes?: SummaryResumes,
): Promise<SessionSummary> {
  const last = resumes?.get(path);
  const from = last && last.ino === facts.ino && last.endOffset <= facts.size ? last : null;
  const tally: Tally = from ? { ...from.tally } : emptyTally();
  let pending: Tally | null = null;
  // One synchronous streaming pass (storage/line-scan.ts): a sidebar asks for thousands of these.
  const scan = await scanLines(
    path,
    (b, start, end, lineNo, _offset, complete) => {
      // As readline does: one '\r' before the '\n' is not part of the line.
      const text = decodeBytes(b, start, end > start && b[end - 1] === CR ? end - 1 : end, false);
      if (complete) return tallyLine(tally, text, lineNo, complete);
      pending = { ...tally };
      tallyLine(pending, text, lineNo, complete);
    },
    from ? { fromOffset: from.endOffset, firstLine: from.nextLine } : {},
  );
  const summary = summaryOf(pending ?? tally, path, facts.mtimeMs);
  resumes?.set(path, { ino: scan.ino, endOffset: scan.endOffset, nextLine: scan.nextLine, tally });
  return summary;
}
