/**
 * What a query's hits are made of, and how a candidate line becomes one: read back by offset, tested
 * raw, parsed and matched with pi's rules (search/rules/search-query.ts), so every hit is exact whatever the
 * index picked.
 */
import { makeSnippet, matchEntry, type SearchQuery, type Snippet } from './rules/search-query';
import { searchFields, type SearchFields, type SearchRole } from './rules/search-text';
import { type RawLineTest } from './rules/raw-filter';
import { type RegexSpanTest } from './rules/regex-raw';
import type { ReadScratch } from '../storage/line-chunks';
import type { SyncLineReader } from '../storage/line-scan';
import type { RawBytesTest } from './raw-bytes';
import type { ReaderPool } from './reader-pool';

export interface SearchHit {
  /** The header's session id. */
  sessionId: string;
  path: string;
  cwd: string;
  sessionName: string | null;
  /** null: the session itself matched (its id, path, name or cwd). */
  entryId: string | null;
  /** Physical line (1 = the header, for a session hit). */
  line: number;
  role: SearchRole | 'session';
  time: number | null;
  field: 'text' | 'thinking' | 'session';
  snippet: string;
  /** The match within the snippet. */
  match: [number, number];
}

export interface FileInfo {
  id: number;
  path: string;
  session_id: string;
  cwd: string;
  name: string | null;
  ino: number;
  mtime_ms: number;
  /** Bytes whose lines are all committed (0: its first sync has not ended; rows may be partial). */
  indexed_to: number;
  last_id: string | null;
  leaf_target: string | null;
  has_leaf: number;
}

export interface Candidate {
  rowid: number;
  file: number;
  entry_id: string | null;
  line: number;
  offset: number;
  length: number;
  role: SearchRole;
  time: number | null;
}

export interface CheckContext {
  q: SearchQuery;
  /** Lowercased `file:` values, all required in the entry's paths. */
  fileNeedles: readonly string[];
  /** Whether a raw JSON line may match (a line they reject is not parsed): its words on its bytes, then its phrases. */
  rawTest: RawLineTest;
  bytesTest: RawBytesTest;
  /** When the raw test is a regex's alone: it, on all the lines of a read at once (search/rules/regex-raw.ts). */
  spanTest?: RegexSpanTest | null;
  readers: ReaderPool;
  /**
   * The query's own read buffer: its stream may pause on a hit inside a read (a full page) while
   * another query reads the same file through the shared pool, so reads never share a reader's buffer.
   */
  scratch: ReadScratch;
}

/** Bytes a verification read may span to cover several candidates of one file at once. */
const SPAN_BYTES = 256 * 1024;

/**
 * Checks a page of candidates in file order: the lines of one file close together are read with one
 * positioned read, each line is tested raw before it is parsed, and parsed lines are matched with
 * pi's rules. Yields the hits in candidate order.
 */
export function* verifyPage(
  ctx: CheckContext,
  met: boolean[],
  byId: Map<number, FileInfo>,
  page: readonly Candidate[],
): Generator<{ c: Candidate; hit: SearchHit }> {
  for (let i = 0; i < page.length;) {
    const first = page[i]!;
    const f = byId.get(first.file)!;
    // The run of candidates in this file that one read covers.
    let j = i + 1;
    let end = first.offset + first.length;
    while (
      j < page.length &&
      page[j]!.file === first.file &&
      page[j]!.offset >= first.offset &&
      page[j]!.offset + page[j]!.length - first.offset <= SPAN_BYTES
    ) {
      end = Math.max(end, page[j]!.offset + page[j]!.length);
      j++;
    }
    let span: Buffer | null;
    try {
      span = readerOf(ctx, f).readBytes(first.offset, end - first.offset, ctx.scratch);
    } catch {
      span = null; // the file changed since it was indexed: the next sync re-reads it
    }
    const may = span && ctx.spanTest ? spanVerdicts(ctx.spanTest, span, first.offset, page, i, j) : null;
    for (let k = i; k < j && span; k++) {
      if (may && !may[k - i]) continue;
      const c = page[k]!;
      const hit = checkCandidate(
        ctx,
        met,
        f,
        c,
        span.subarray(c.offset - first.offset, c.offset - first.offset + c.length),
        may !== null,
      );
      if (hit) yield { c, hit };
    }
    i = j;
  }
}

/** The span test's verdict on candidates [i, j) of a page, read as `span` from `base`. */
function spanVerdicts(
  test: RegexSpanTest,
  span: Buffer,
  base: number,
  page: readonly Candidate[],
  i: number,
  j: number,
): boolean[] {
  const starts: number[] = [];
  const ends: number[] = [];
  for (let k = i; k < j; k++) {
    const c = page[k]!;
    // Candidates of one read are in file order; one overlapping the last (rows of another version) is tested alone.
    const start = Math.max(c.offset - base, ends[ends.length - 1] ?? 0);
    starts.push(start);
    ends.push(Math.max(start, c.offset - base + c.length));
  }
  const verdicts = test(span.toString('latin1'), starts, ends);
  // A candidate whose range was cut above is never turned away.
  for (let k = i; k < j; k++) if (starts[k - i] !== page[k]!.offset - base) verdicts[k - i] = true;
  return verdicts;
}

export function readerOf(ctx: CheckContext, f: FileInfo): SyncLineReader {
  return ctx.readers.get(f.path, f.ino);
}

export function checkCandidate(
  ctx: CheckContext,
  met: boolean[],
  f: FileInfo,
  c: Candidate,
  bytes: Buffer,
  /** The raw test passed already (the span test). */
  rawPassed = false,
): SearchHit | null {
  // Tested as latin1 (no UTF-8 decoding): the test's literals are ASCII, which UTF-8 bytes of other
  // characters never form, so only lines that may match are decoded and parsed.
  if (!rawPassed && (!ctx.bytesTest(bytes, 0, bytes.length) || !ctx.rawTest(bytes.toString('latin1')))) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8').replace(/\r$/, ''));
  } catch {
    return null; // the file changed since it was indexed: the next sync re-reads it
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  // Paths are found in the text only for a `file:` filter (a regex pass over every tool output).
  return fieldsHit(ctx, met, f, searchFields(raw as Record<string, unknown>, ctx.fileNeedles.length > 0), c);
}

/** A parsed line's hit (its `file:` filters and pi's match), or null; `at` names the entry. */
export function fieldsHit(
  ctx: Pick<CheckContext, 'q' | 'fileNeedles'>,
  met: boolean[],
  f: Pick<FileInfo, 'session_id' | 'path' | 'cwd' | 'name'>,
  fields: SearchFields,
  at: Pick<Candidate, 'entry_id' | 'line' | 'role' | 'time'>,
): SearchHit | null {
  const { q, fileNeedles } = ctx;
  if (fileNeedles.length) {
    const paths = fields.paths.toLowerCase();
    if (!fileNeedles.every((p) => paths.includes(p))) return null;
  }
  const m = matchEntry(q, met, fields.text, fields.thinking);
  if (!m) return null;
  const source = m.field === 'text' ? fields.text : fields.thinking;
  const snip: Snippet = makeSnippet(source, m.start, m.end);
  return {
    sessionId: f.session_id,
    path: f.path,
    cwd: f.cwd,
    sessionName: f.name,
    entryId: at.entry_id,
    line: at.line,
    role: at.role,
    time: at.time,
    field: m.field,
    snippet: snip.text,
    match: snip.match,
  };
}
