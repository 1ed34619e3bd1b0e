/**
 * The byte stage of a search: files the index does not hold (not reached yet by the first build, or
 * every file when the index cannot be used) are searched straight from disk. A piece of complete
 * lines is tested raw as a whole (the query's literals, as the index's blocks are), and only the
 * lines of a passing piece are parsed and matched with pi's rules: the hits the index would give.
 */
import { isPlainRecord as isRecord } from '../core';
import { isV1Header, searchFields, v1EntryId } from './rules/search-text';
import { rawLineTest, type RawLineTest } from './rules/raw-filter';
import { termsMetBySession, type SearchQuery } from './rules/search-query';
import { openLineFile, type LineFile, type ReadScratch } from '../storage/line-chunks';
import { fieldsHit, type FileInfo, type SearchHit } from './candidate-check';
import { rawBytesTest, type RawBytesTest } from './raw-bytes';
import { lineText, toolNamesText } from './line-text';
import { entryFilter, noEntryFilter, sessionHit, type EntryFilter } from './query';

/** Bytes of complete lines tested raw at once (a failing piece's lines are only counted). */
const PIECE = 64 * 1024;
const NL = 0x0a;
const CR = 0x0d;

type Rec = Record<string, unknown>;

/** Line 1 when it is a session header (else null: it is read as an entry, as the index reads it). */
function headerOf(file: LineFile): Rec | null {
  for (const piece of file.chunks()) {
    if (!piece) continue;
    try {
      const v: unknown = JSON.parse(lineText(piece, 0, lineEnd(piece, 0, piece.indexOf(NL))));
      return isRecord(v) && v.type === 'session' ? v : null;
    } catch {
      return null;
    }
  }
  return null;
}

/** Where a line's text ends: before its newline and a CR before it. */
function lineEnd(b: Buffer, start: number, nl: number): number {
  return nl > start && b[nl - 1] === CR ? nl - 1 : nl;
}

/** The last `session_info` name in the file: its lines are found by a byte search, then parsed. */
function* lastName(file: LineFile): Generator<null, string | null> {
  let name: string | null = null;
  for (const piece of file.chunks()) {
    if (!piece) {
      yield null;
      continue;
    }
    for (let at = piece.indexOf('"session_info"'); at >= 0; at = piece.indexOf('"session_info"', at + 1)) {
      const start = piece.lastIndexOf(NL, at) + 1;
      const end = piece.indexOf(NL, at);
      try {
        const v: unknown = JSON.parse(piece.toString('utf8', start, end));
        const f = isRecord(v) ? searchFields(v) : null;
        if (f?.sessionName != null) name = f.sessionName;
      } catch {
        // A damaged line names nothing (the index skips it too).
      }
      at = end;
    }
  }
  return name;
}

/** What the byte stage knows of a file: its header's facts and its last session name. */
type ByteFile = Pick<FileInfo, 'session_id' | 'path' | 'cwd' | 'name'>;

/**
 * Each file's last session name, kept while the file is unchanged (same inode, size and mtime):
 * finding it reads the whole file, and every query of the byte stage needs it. Bounded, oldest out.
 */
export class SessionNames {
  private readonly known = new Map<string, { key: string; name: string | null }>();
  constructor(private readonly max = 20_000) {}

  *of(lines: LineFile, path: string): Generator<null, string | null> {
    const key = `${lines.facts.ino}:${lines.facts.size}:${lines.facts.mtimeMs}`;
    const had = this.known.get(path);
    if (had?.key === key) return had.name;
    const name = yield* lastName(lines);
    this.known.delete(path);
    this.known.set(path, { key, name });
    if (this.known.size > this.max) this.known.delete(this.known.keys().next().value!);
    return name;
  }
}

interface Scope {
  names: SessionNames;
  q: SearchQuery;
  fileNeedles: readonly string[];
  /** Its role, time and tool filters (query.ts, as the index's entries are tested). */
  filter: EntryFilter;
  /** The raw tests of each set of terms a session meets (made once a query, not once a file). */
  tests: Map<string, RawTests>;
}

interface RawTests {
  /** Its words, on bytes (most pieces fail it and are never made a string). */
  bytes: RawBytesTest;
  line: RawLineTest;
}

function testsOf(s: Scope, met: readonly boolean[]): RawTests {
  const key = met.map((m) => (m ? 1 : 0)).join('');
  let t = s.tests.get(key);
  if (!t) s.tests.set(key, (t = { bytes: rawBytesTest(s.q, met), line: rawLineTest(s.q, met, true) }));
  return t;
}

function testOf(s: Scope, met: readonly boolean[]): (b: Buffer, start: number, end: number) => boolean {
  const { bytes, line } = testsOf(s, met);
  return (b, start, end) => bytes(b, start, end) && line(b.toString('latin1', start, end));
}

/** The entries on the path from the leaf (the last `leaf` record's target, else the last entry) to the root. */
function pathOf(parents: Map<string, string | null>, start: string | null): Set<string> {
  const on = new Set<string>();
  for (let at = start; at && parents.has(at) && !on.has(at); at = parents.get(at) ?? null) on.add(at);
  return on;
}

/**
 * A file read whole that fails the raw test of the terms its session does not meet (its name
 * aside: a phrase's words, then the phrase) holds no hit, and neither its session name need be
 * found (a pass over the file) nor its pieces tested (the same scan again): when every term is a
 * phrase, the name meets one only if its line passes that phrase's test. (A word may meet the name
 * by pi's fuzzy rule, with no word of it there.)
 */
function withoutHits(lines: LineFile, s: Scope, session: Parameters<typeof termsMetBySession>[1]): boolean {
  if (!lines.whole || s.q.terms.length === 0 || s.q.terms.some((t) => t.kind !== 'phrase')) return false;
  const met = termsMetBySession(s.q, session);
  for (const b of lines.chunks()) if (b) return !testOf(s, met)(b, 0, b.length);
  return true; // no complete line
}

function* fileHits(lines: LineFile, path: string, s: Scope): Generator<SearchHit | null> {
  const header = headerOf(lines);
  const cwd = typeof header?.cwd === 'string' ? header.cwd : '';
  const { projects } = s.q.filters;
  if (projects.length && !projects.some((p) => cwd.toLowerCase().includes(p))) return;
  const v1 = header !== null && isV1Header(header);
  const id = typeof header?.id === 'string' ? header.id : '';
  if (withoutHits(lines, s, { id, path, cwd, name: null })) return;
  const name = s.q.terms.length ? yield* s.names.of(lines, path) : null;
  const file: ByteFile = { path, session_id: id, cwd, name };
  const met = termsMetBySession(s.q, { id: file.session_id, path, cwd, name });
  if (s.q.terms.length > 0 && met.every(Boolean) && noEntryFilter(s.q)) {
    yield sessionHit(file, s.q);
    return;
  }
  const test = testOf(s, met);
  const branch = s.q.filters.activeBranch;
  let line = 0;
  let lastId: string | null = null;
  let leaf: string | null | undefined;
  const parents = new Map<string, string | null>();
  const held: SearchHit[] = [];
  for (const b of lines.chunks()) {
    if (!b) {
      yield null;
      continue;
    }
    // Lines are counted only up to a piece that may hold a hit: a file with none is never split.
    let counted = 0;
    const countTo = (pos: number): void => {
      for (let at = b.indexOf(NL, counted); at >= 0 && at < pos; at = b.indexOf(NL, at + 1)) line++;
      counted = pos;
    };
    for (let p = 0; p < b.length;) {
      // Whole lines of about PIECE bytes (a longer line is a piece of its own); b ends with a newline.
      const back = b.lastIndexOf(NL, Math.min(b.length - 1, p + PIECE));
      const pieceEnd = (back >= p ? back : b.indexOf(NL, p + PIECE)) + 1;
      const start0 = p;
      p = pieceEnd;
      // A piece without the query's literals holds no hit (a branch filter parses every line).
      if (!branch && !test(b, start0, pieceEnd)) continue;
      countTo(start0);
      for (let ls = start0; ls < pieceEnd;) {
        const le = b.indexOf(NL, ls);
        const start = ls;
        ls = le + 1;
        counted = ls;
        line++;
        if (line === 1 && header) continue;
        const end = lineEnd(b, start, le);
        const may = test(b, start, end);
        if (!may && !branch) continue;
        let value: unknown;
        try {
          value = JSON.parse(lineText(b, start, end));
        } catch {
          continue; // a damaged line (the index skips it and lists it as a problem)
        }
        if (!isRecord(value) || value.type === 'session') continue;
        const fields = searchFields(value, s.fileNeedles.length > 0);
        if (v1) {
          fields.parentId = lastId;
          fields.id = v1EntryId(line);
        }
        if (fields.id) {
          parents.set(fields.id, fields.parentId);
          lastId = fields.id;
        }
        if (fields.leafTarget !== undefined) leaf = fields.leafTarget;
        const time = Number.isNaN(fields.time) ? null : fields.time;
        if (!may || (s.filter && !s.filter({ role: fields.role ?? '', time, tools: toolNamesText(fields.tools) })))
          continue;
        const hit = fieldsHit(s, met, file, fields, { entry_id: fields.id, line, role: fields.role, time });
        if (hit && branch) held.push(hit);
        else if (hit) yield hit;
      }
    }
    // The next chunk reuses the buffer: its lines are counted now (a file read whole has no next).
    if (!lines.whole) countTo(b.length);
  }
  if (branch) {
    const on = pathOf(parents, leaf !== undefined ? leaf : lastId);
    for (const h of held) if (h.entryId && on.has(h.entryId)) yield h;
  }
}

/**
 * Every hit of `q` in `paths`, file by file in the order given, lines in file order; `null` after
 * each chunk read (a point to pause). A file that cannot be read now (gone, not a regular file) is
 * passed over: the listing reports it.
 */
export function* byteHits(paths: readonly string[], q: SearchQuery, names: SessionNames): Generator<SearchHit | null> {
  const scope: Scope = {
    names,
    q,
    fileNeedles: q.filters.files.map((p) => p.toLowerCase()),
    filter: entryFilter(q),
    tests: new Map(),
  };
  // Files are read one after another: each into the same buffer.
  const scratch: ReadScratch = { buf: null };
  for (const path of paths) {
    yield null;
    let lines: LineFile;
    try {
      lines = openLineFile(path, scratch);
    } catch {
      continue; // gone, or not a regular file now: the listing reports it
    }
    try {
      yield* fileHits(lines, path, scope);
    } finally {
      lines.close();
    }
  }
}
