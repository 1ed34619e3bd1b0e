/**
 * Listing sessions: roots → project directories → files, reading only each file's first line
 * (storage/header-probe.ts: one synchronous open/fstat/read/close per file, in batches).
 * The project is the header's `cwd` (directory names are never decoded). Names, previews and
 * counts need the whole file; `summarizeSession` streams it once and caches by (path, size, mtime).
 */
import { dirname } from 'node:path';
import { parseSession } from '../core';
import { CanopyError, type ErrorCode } from '../shared/errors';
import { probeSessionFiles, type ProbedFile } from '../storage/header-probe';
import { decodeBytes, scanLines } from '../storage/line-scan';
import { LineTooLongError, readFirstLine, type FirstLine } from '../storage/read';
import { errnoCode, statPathSync } from '../storage/stat';
import { insideTest, realRoots } from './confine';
import { FileCache } from './file-cache';
import { delayedProgress } from './progress';

export interface SessionInfo {
  id: string;
  path: string;
  /** Header cwd ('' when the header has none, as pi's listing shows it). */
  cwd: string;
  /** Header timestamp as written. */
  createdAt: string;
  /** File mtime, ISO. */
  modifiedAt: string;
  sizeBytes: number;
  /** Header parentSession (or the legacy v1 `branchedFrom`). */
  parentSessionPath?: string;
  /** Only filled by callers that summarised the file (listing reads headers only). */
  name?: string;
}

export interface SkippedFile {
  path: string;
  error: { code: string; message: string };
}

export interface SessionListing {
  sessions: SessionInfo[];
  skipped: SkippedFile[];
}

type HeaderResult = { ok: true; info: SessionInfo } | { ok: false; skipped: SkippedFile };

const MAX_HEADERS = 100_000;
const MAX_SUMMARIES = 20_000;

/**
 * What listing has read, by path, valid while (size, mtime) stay the same: header results (a plain
 * synchronous map: the header is read with the listing itself, so no load is ever shared; 10,000
 * lookups stay cheap) and summaries. One per catalog; a one-shot listing uses a fresh one.
 */
export class ListingCache {
  private readonly headers = new Map<string, { size: number; mtimeMs: number; result: HeaderResult }>();
  readonly summaries = new FileCache<SessionSummary>(MAX_SUMMARIES);

  header(file: ProbedFile): HeaderResult {
    const hit = this.headers.get(file.path);
    if (hit && hit.size === file.size && hit.mtimeMs === file.mtimeMs) return hit.result;
    const result = readHeader(file);
    if (hit) this.headers.delete(file.path);
    else if (this.headers.size >= MAX_HEADERS) this.headers.delete(this.headers.keys().next().value as string);
    this.headers.set(file.path, { size: file.size, mtimeMs: file.mtimeMs, result });
    return result;
  }
}

function toIso(ms: number): string {
  return new Date(ms).toISOString();
}

function ioError(path: string, err: unknown): { code: ErrorCode; message: string } {
  if (err instanceof CanopyError) return { code: err.code, message: err.message };
  if (err instanceof LineTooLongError) return { code: 'invalid_session', message: `not a pi session: ${err.message}` };
  const code = errnoCode(err);
  const message = err instanceof Error ? err.message : String(err);
  return { code: code === 'ENOENT' ? 'not_found' : 'io', message: `cannot read ${path}: ${message}` };
}

function readHeader(file: ProbedFile): HeaderResult {
  const skip = (code: string, message: string): HeaderResult => ({
    ok: false,
    skipped: { path: file.path, error: { code, message } },
  });
  if (file.readError !== undefined) {
    const e = ioError(file.path, file.readError);
    return skip(e.code, e.message);
  }
  const first: FirstLine | null = file.first;
  if (first === null) return skip('invalid_session', 'empty file: missing session header');
  // pi's H3 listing looks at the first physical line only; the core validates it as a header.
  const parsed = parseSession([{ line: 1, text: first.text, complete: first.complete }]);
  if (parsed.fatal || !parsed.header) {
    return skip(parsed.fatal?.code ?? 'invalid_session', parsed.fatal?.message ?? 'missing session header');
  }
  const h = parsed.header;
  const parent =
    typeof h.parentSession === 'string'
      ? h.parentSession
      : typeof h.branchedFrom === 'string'
        ? h.branchedFrom
        : undefined;
  const info: SessionInfo = {
    id: h.id,
    path: file.path,
    cwd: typeof h.cwd === 'string' ? h.cwd : '',
    createdAt: typeof h.timestamp === 'string' ? h.timestamp : '',
    modifiedAt: toIso(file.mtimeMs),
    sizeBytes: file.size,
  };
  if (parent !== undefined) info.parentSessionPath = parent;
  return { ok: true, info };
}

function createdMs(s: SessionInfo): number {
  const t = Date.parse(s.createdAt);
  return Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t;
}

export interface ListOptions {
  signal?: AbortSignal;
  /** Files read and files found, once listing has taken `progressDelayMs` (default 200 ms). */
  onProgress?: (done: number, total: number) => void;
  progressDelayMs?: number;
  /** Headers read before (the catalog's); default: none. */
  cache?: ListingCache;
}

/** Every session under the roots, newest header time first; bad files in `skipped`, never thrown. */
export async function listSessions(roots: readonly string[], opts: ListOptions = {}): Promise<SessionListing> {
  const progress = delayedProgress(opts.onProgress, opts.progressDelayMs);
  const { files, errors, outside } = await probeSessionFiles(roots, {
    inside: insideTest(realRoots(roots)),
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(progress ? { onProgress: progress } : {}),
  });
  const cache = opts.cache ?? new ListingCache();
  const results = files.map((f) => cache.header(f));
  const sessions: SessionInfo[] = [];
  const skipped: SkippedFile[] = errors.map((e) => ({
    path: e.path,
    error: { code: e.code === 'ENOENT' ? 'not_found' : 'io', message: e.message },
  }));
  for (const path of outside)
    skipped.push({ path, error: { code: 'outside_roots', message: `${path} is outside the session roots` } });
  for (const r of results) {
    if (r.ok) sessions.push({ ...r.info });
    else skipped.push(r.skipped);
  }
  // Parse each header time once, not once per comparison (10,000 sessions: ~280k comparisons).
  const keyed = sessions.map((info) => ({ info, ms: createdMs(info) }));
  keyed.sort((a, b) => b.ms - a.ms || (a.info.path < b.info.path ? -1 : a.info.path > b.info.path ? 1 : 0));
  for (let i = 0; i < keyed.length; i++) sessions[i] = keyed[i]!.info;
  return { sessions, skipped };
}

/** The given files as listSessions reads them (the explicitly opened files of a catalog). */
export async function listSessionFiles(paths: readonly string[], cache = new ListingCache()): Promise<SessionListing> {
  const sessions: SessionInfo[] = [];
  const skipped: SkippedFile[] = [];
  for (const path of paths) {
    let file: ProbedFile;
    try {
      const facts = statPathSync(path);
      file = { path, root: dirname(path), dir: dirname(path), size: facts.size, mtimeMs: facts.mtimeMs, first: null };
      try {
        file.first = await readFirstLine(path);
      } catch (err) {
        file.readError = err;
      }
    } catch (err) {
      skipped.push({ path, error: ioError(path, err) });
      continue;
    }
    const r = cache.header(file);
    if (r.ok) sessions.push({ ...r.info });
    else skipped.push(r.skipped);
  }
  return { sessions, skipped };
}

/** Sessions grouped by header cwd, for a projects → sessions view. Order follows `sessions`. */
export function groupByProject(sessions: readonly SessionInfo[]): { cwd: string; sessions: SessionInfo[] }[] {
  const byCwd = new Map<string, SessionInfo[]>();
  for (const s of sessions) {
    const list = byCwd.get(s.cwd);
    if (list) list.push(s);
    else byCwd.set(s.cwd, [s]);
  }
  return [...byCwd].map(([cwd, list]) => ({ cwd, sessions: list }));
}

export interface SessionSummary {
  /** Last `session_info` name in file order, trimmed; null when none or cleared. */
  name: string | null;
  /** Text of the first user message (text blocks joined by a space), cut to 500 characters. */
  firstMessage: string | null;
  /** Set when it differs from firstMessage: the first user message whose entry time is not before the header's (a fork's own: copied ones are older). */
  ownFirstMessage?: string | null;
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

async function computeSummary(path: string, mtimeMs: number): Promise<SessionSummary> {
  let header: Rec | null = null;
  let name: string | null = null;
  let firstMessage: string | null = null;
  let ownFirstMessage: string | null = null;
  let headerMs = Number.NaN;
  let entryCount = 0;
  let messageCount = 0;
  let lastActivity = 0;
  let issueCount = 0;
  // One synchronous streaming pass (storage/line-scan.ts): a sidebar asks for thousands of these.
  await scanLines(path, (b, start, end, lineNo, _offset, complete) => {
    // As readline does: one '\r' before the '\n' is not part of the line.
    const text = decodeBytes(b, start, end > start && b[end - 1] === CR ? end - 1 : end, false);
    if (!text.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      issueCount++;
      return; // pi's listing skips unparsable lines too
    }
    if (!isRecord(value)) {
      issueCount++;
      return;
    }
    if (header === null) {
      const parsed = parseSession([{ line: lineNo, text, complete }]);
      if (parsed.fatal) throw new CanopyError(parsed.fatal.code, parsed.fatal.message);
      issueCount += parsed.issues.length;
      header = value;
      headerMs = typeof value.timestamp === 'string' ? Date.parse(value.timestamp) : Number.NaN;
      return;
    }
    if (typeof value.id !== 'string' || !value.id) issueCount++;
    entryCount++;
    if (value.type === 'session_info') {
      name = typeof value.name === 'string' && value.name.trim() ? value.name.trim() : null;
    }
    if (value.type !== 'message') return;
    messageCount++;
    const message = value.message;
    if (!isRecord(message)) return;
    if (message.role !== 'user' && message.role !== 'assistant') return;
    const time = typeof message.timestamp === 'number' ? message.timestamp : Date.parse(String(value.timestamp));
    if (!Number.isNaN(time)) lastActivity = Math.max(lastActivity, time);
    if (message.role === 'user' && (firstMessage === null || ownFirstMessage === null)) {
      const t = messageText(message);
      const cut = t.length > PREVIEW_CHARS ? `${t.slice(0, PREVIEW_CHARS)}…` : t;
      if (t && firstMessage === null) firstMessage = cut;
      if (t && ownFirstMessage === null && !(Date.parse(String(value.timestamp)) < headerMs)) ownFirstMessage = cut;
    }
  });
  const head = header as Rec | null;
  if (head === null) throw new CanopyError('invalid_session', `not a pi session: ${path} has no session header`);
  const headerTime = typeof head.timestamp === 'string' ? Date.parse(head.timestamp) : Number.NaN;
  const activity = lastActivity > 0 ? lastActivity : !Number.isNaN(headerTime) ? headerTime : mtimeMs;
  return {
    name,
    firstMessage,
    ...(ownFirstMessage !== firstMessage ? { ownFirstMessage } : {}),
    entryCount,
    messageCount,
    lastActivity: toIso(activity),
    issueCount,
  };
}

/** Name, first prompt, counts and last activity of one file (one streaming pass, cached in `cache`). */
export async function summarizeSession(path: string, cache = new ListingCache()): Promise<SessionSummary> {
  let facts;
  try {
    facts = statPathSync(path);
  } catch (err) {
    const e = ioError(path, err);
    throw new CanopyError(e.code, e.message);
  }
  return cache.summaries.getOrLoad(path, facts, () =>
    computeSummary(path, facts.mtimeMs).catch((err: unknown) => {
      const e = ioError(path, err);
      throw new CanopyError(e.code, e.message);
    }),
  );
}
