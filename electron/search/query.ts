/**
 * Runs a parsed query on the index: the word index picks candidate blocks (a query's words widened
 * to the indexed terms that can hold them, search/rules/word-tokens.ts), then each candidate's line
 * is read back and checked with pi's own rules (search/rules/search-query.ts), so what the index cannot
 * say exactly (regexes, punctuation, word parts) is still exact. There is no budget: `queryHits` is a generator the
 * caller pages (query-pages.ts keeps it between pages), so every hit comes, each once, in order.
 */
import { constants } from 'node:buffer';
import { rawLineTest } from './rules/raw-filter';
import { regexSpanTest } from './rules/regex-raw';
import { requiredSubstrings, termsMetBySession, type SearchQuery } from './rules/search-query';
import { sessionMatch } from './rules/session-match';
import { type SearchRole } from './rules/search-text';
import { rawBytesTest } from './raw-bytes';
import type { SearchDatabase } from './storage/search-db';
import type { ParsedEntry } from './file-parse';
import { ReaderPool } from './reader-pool';
import { candidateBlocks, EVERY } from './candidate-blocks';
import { termIndex } from './term-index';
import {
  checkCandidate,
  readerOf,
  verifyPage,
  type Candidate,
  type CheckContext,
  type FileInfo,
  type SearchHit,
} from './candidate-check';

export type { FileInfo, SearchHit } from './candidate-check';

export interface QueryOptions {
  /** Only these files (the listed sessions); default every indexed file. */
  paths?: ReadonlySet<string>;
  /** indexedFiles() of this index, when the caller kept them (10,000 rows cost ~10 ms a query). */
  files?: readonly FileInfo[];
  /** Files kept open across queries (the caller closes them); default: opened for this query alone. */
  readers?: ReaderPool;
}

/**
 * Every hit of a query, in order (session hits, then entries by rowid: newest first). `null` is a
 * tick after each candidate block or page: a point where the caller may pause (yield to the event
 * loop, check cancellation) without a hit to show. The generator holds no SQLite statement open
 * between steps, so it may be paused across index writes (it keeps the candidate list it read).
 */
export type HitStream = Generator<SearchHit | null, void, undefined>;

/** Blocks a filter-only query reads at a time (~18 entries each on the 10k store). */
const PAGE_BLOCKS = 32;

/** The entries on the path from the file's current leaf to its root (pi: leaf = last entry; h3: last `leaf` entry). */
function activePath(db: SearchDatabase, f: FileInfo): Set<string> {
  const parents = new Map<string, string | null>();
  // A file's blocks are written in line order, so in rowid order.
  for (const e of db
    .prepare<[number], { id: string; parentId: string | null }>(
      'SELECT e.id, e.parent_id AS parentId FROM blocks b JOIN entries e ON e.block = b.rowid WHERE b.file = ? AND e.id IS NOT NULL ORDER BY b.rowid, e.line',
    )
    .iterate(f.id))
    parents.set(e.id, e.parentId);
  const on = new Set<string>();
  let at = f.has_leaf ? f.leaf_target : f.last_id;
  while (at && parents.has(at) && !on.has(at)) {
    on.add(at);
    at = parents.get(at) ?? null;
  }
  return on;
}

/** The query's entry filters (role, time, tools) on an entry as the index stores it; null: none. */
export type EntryFilter = ((e: Pick<ParsedEntry, 'role' | 'time' | 'tools'>) => boolean) | null;

/** The query's role, time and tool filters as one test of an entry (null: it has none); the byte stage's too. */
export function entryFilter(q: SearchQuery): EntryFilter {
  const { roles, after, before, tools } = q.filters;
  if (roles.length + tools.length === 0 && after === null && before === null) return null;
  const names = tools.map((t) => ` ${t} `);
  return (e) =>
    (roles.length === 0 || (roles as readonly string[]).includes(e.role)) &&
    (after === null || (e.time !== null && e.time >= after)) &&
    (before === null || (e.time !== null && e.time < before)) &&
    (names.length === 0 || names.some((n) => e.tools.includes(n)));
}

/** No entry filter (role, tool, file, time, branch, regex): terms met by the session alone make it a session hit. */
export function noEntryFilter(q: SearchQuery): boolean {
  const f = q.filters;
  return (
    !q.regex &&
    f.roles.length + f.tools.length + f.files.length === 0 &&
    f.after === null &&
    f.before === null &&
    !f.activeBranch
  );
}

/** A hit on the session itself (its id, name, cwd or path met every term), the field that met one marked. */
export function sessionHit(f: Pick<FileInfo, 'session_id' | 'path' | 'cwd' | 'name'>, q: SearchQuery): SearchHit {
  const { snippet, match } = sessionMatch(q, { id: f.session_id, path: f.path, cwd: f.cwd, name: f.name });
  return {
    sessionId: f.session_id,
    path: f.path,
    cwd: f.cwd,
    sessionName: f.name,
    entryId: null,
    line: 1,
    role: 'session',
    time: null,
    field: 'session',
    snippet,
    match,
  };
}

interface FilesFacts {
  byId: Map<number, FileInfo>;
  /** Every file's id, name and cwd, one per line: a phrase absent here is met by no session. */
  fields: string;
}

const factsCache = new WeakMap<readonly FileInfo[], FilesFacts>();

/** Lookups over a files list, kept with the list (the caller keeps it until the index changes). */
function factsOf(files: readonly FileInfo[], keep = true): FilesFacts {
  const known = factsCache.get(files);
  if (known) return known;
  const facts = {
    byId: new Map(files.map((f) => [f.id, f])),
    fields: files.map((f) => `${f.session_id}\n${f.name ?? ''}\n${f.cwd}`).join('\n'),
  };
  if (keep) factsCache.set(files, facts);
  return facts;
}

const FILE_COLUMNS = 'id, path, session_id, cwd, name, ino, mtime_ms, indexed_to, last_id, leaf_target, has_leaf';

/** Every indexed file's facts, in id order (the caller may keep them until the index changes). */
export function indexedFiles(db: SearchDatabase): FileInfo[] {
  return db.prepare<[], FileInfo>(`SELECT ${FILE_COLUMNS} FROM files ORDER BY id`).all();
}

/**
 * `files` (indexedFiles' list) with `path`'s row as it is now: changed, added or gone. A new list
 * in the same order as indexedFiles gives (re-reading 10,000 rows after each append cost ~40 ms a query).
 */
export function withFileRow(db: SearchDatabase, files: readonly FileInfo[], path: string): FileInfo[] {
  const row = db.prepare<[string], FileInfo>(`SELECT ${FILE_COLUMNS} FROM files WHERE path = ?`).get(path);
  const out = files.filter((f) => f.path !== path);
  if (!row) return out;
  let at = out.length;
  while (at > 0 && out[at - 1]!.id > row.id) at--;
  out.splice(at, 0, row);
  return out;
}

export function* queryHits(db: SearchDatabase, q: SearchQuery, opts: QueryOptions = {}): HitStream {
  const all = opts.files ?? indexedFiles(db);
  const everyFile = !opts.paths && q.filters.projects.length === 0;
  const files = everyFile
    ? all
    : all.filter(
        (f) =>
          (!opts.paths || opts.paths.has(f.path)) &&
          (q.filters.projects.length === 0 || q.filters.projects.some((p) => f.cwd.toLowerCase().includes(p))),
      );
  const facts = everyFile ? factsOf(all) : factsOf(files, false);
  const { byId } = facts;
  const sessionLevel = noEntryFilter(q);
  // Terms no session's own fields can meet (tested once on all of them): most queries' terms.
  const unmet = q.terms.map((t) => t.kind === 'phrase' && !/[/\\]/.test(t.value) && !t.pattern.test(facts.fields));

  // Files grouped by which terms their own fields meet (usually one or two groups).
  const groups = new Map<string, { met: boolean[]; files: FileInfo[] }>();
  if (unmet.every(Boolean)) groups.set('', { met: unmet.map(() => false), files: [...files] });
  for (const f of groups.size ? [] : files) {
    const met = termsMetBySession(q, { id: f.session_id, path: f.path, cwd: f.cwd, name: f.name });
    if (q.terms.length > 0 && met.every(Boolean) && sessionLevel) {
      yield sessionHit(f, q);
      continue;
    }
    const key = met.map((m) => (m ? 1 : 0)).join('');
    const g = groups.get(key);
    if (g) g.files.push(f);
    else groups.set(key, { met, files: [f] });
  }

  const filter = entryFilter(q);
  // File filters are substrings of the text too (paths are not indexed apart).
  const fileParts = q.filters.files.flatMap((p) => p.split(/\s+/)).filter(Boolean);
  const readers = opts.readers ?? new ReaderPool();
  const branches = new Map<number, Set<string>>();
  const check: CheckContext = {
    q,
    fileNeedles: q.filters.files.map((p) => p.toLowerCase()),
    rawTest: () => true,
    bytesTest: () => true,
    readers,
    scratch: { buf: null },
  };

  try {
    const terms = termIndex(db);
    for (const { met, files: groupFiles } of groups.values()) {
      // null: every file in scope (byId already says which).
      const inGroup = groupFiles.length === files.length ? null : new Set(groupFiles.map((f) => f.id));
      const needed = [...requiredSubstrings(q, met), ...fileParts];
      const blocks = candidateBlocks(db, needed, terms);
      check.rawTest = rawLineTest(q, met, true);
      check.bytesTest = rawBytesTest(q, met);
      // Nothing to look for but the regex: it is tested on each read's lines at once.
      check.spanTest = needed.length === 0 && q.regex ? regexSpanTest(q.regex) : null;
      const found =
        blocks !== EVERY
          ? blockHits(db, check, met, byId, inGroup, blocks, filter)
          : entryHits(db, check, met, byId, inGroup, filter);
      for (const step of found) {
        if (!step) {
          yield null;
          continue;
        }
        const { c, hit } = step;
        if (q.filters.activeBranch) {
          const f = byId.get(c.file)!;
          let on = branches.get(f.id);
          if (!on) branches.set(f.id, (on = activePath(db, f)));
          if (!hit.entryId || !on.has(hit.entryId)) continue;
        }
        yield hit;
      }
    }
  } finally {
    if (!opts.readers) readers.close();
  }
}

/** The first `limit` hits of a query and whether more exist (tests, tools; the services page a HitStream). */
export function runQuery(
  db: SearchDatabase,
  q: SearchQuery,
  opts: QueryOptions & { limit: number },
): { hits: SearchHit[]; more: boolean } {
  const hits: SearchHit[] = [];
  const stream = queryHits(db, q, opts);
  try {
    for (const hit of stream) {
      if (!hit) continue;
      if (hits.length === opts.limit) return { hits, more: true };
      hits.push(hit);
    }
    return { hits, more: false };
  } finally {
    stream.return();
  }
}

const BLOCK_COLUMNS = 'rowid, file, offset, end';

interface BlockRow {
  rowid: number;
  file: number;
  offset: number;
  end: number;
}

/** A block's entries, in line order. */
function blockEntries(db: SearchDatabase): (block: number) => ParsedEntry[] {
  const st = db.prepare<[number], ParsedEntry>(
    'SELECT line, offset, length, id, parent_id AS parentId, role, time, tools FROM entries WHERE block = ? ORDER BY line',
  );
  return (block) => st.all(block);
}

/** A block's entries as candidates, those the filter keeps. */
function candidatesOf(entriesOf: (block: number) => ParsedEntry[], b: BlockRow, filter: EntryFilter): Candidate[] {
  const out: Candidate[] = [];
  for (const e of entriesOf(b.rowid)) {
    if (filter && !filter(e)) continue;
    const { id, line, offset, length, role, time } = e;
    out.push({ rowid: b.rowid, file: b.file, entry_id: id, line, offset, length, role: role as SearchRole, time });
  }
  return out;
}

/** Blocks longer than this are checked entry by entry (a span is read, and tested as one string). */
const WHOLE_BLOCK_BYTES = 64 * 1024 * 1024;
/** An entry longer than this cannot become one string (V8's limit): never a candidate. */
const MAX_LINE_TEXT = constants.MAX_STRING_LENGTH;

/** One candidate read and checked on its own. */
function checkAlone(ctx: CheckContext, met: boolean[], f: FileInfo, c: Candidate): SearchHit | null {
  let bytes: Buffer;
  try {
    bytes = readerOf(ctx, f).readBytes(c.offset, c.length, { buf: null });
  } catch {
    return null; // the file changed since it was indexed: the next sync re-reads it
  }
  return checkCandidate(ctx, met, f, c, bytes);
}

/** A hit with its candidate row, or null: a block or page was checked (a point to pause). */
type Found = Generator<{ c: Candidate; hit: SearchHit } | null>;

/**
 * Hits in the candidate blocks, in rowid order (sessions are indexed newest first,
 * so this is the ranking: recency). A block's byte range is read once and tested raw as a whole (a
 * line that may match makes its block pass: the test is a necessary condition of a substring), so
 * only a passing block's entries are read, and its lines tested and parsed one by one.
 */
function* blockHits(
  db: SearchDatabase,
  ctx: CheckContext,
  met: boolean[],
  byId: Map<number, FileInfo>,
  inGroup: ReadonlySet<number> | null,
  blocks: readonly number[],
  filter: EntryFilter,
): Found {
  // Every candidate block is known at once (FTS5 re-evaluates a whole query for a `rowid > ?` page);
  // its row is looked up one block at a time, as the reader pages on (a common phrase matches most).
  const blockRow = db.prepare<[number], BlockRow>(`SELECT ${BLOCK_COLUMNS} FROM blocks WHERE rowid = ?`);
  const entriesOf = blockEntries(db);
  for (const rowid of blocks) {
    const b = blockRow.get(rowid);
    if (!b) continue;
    const f = byId.get(b.file);
    if (!f || (inGroup && !inGroup.has(b.file))) continue;
    yield null;
    // A block spanning a huge line (one the index skipped and listed as a problem) is not read
    // whole: each entry's own bytes are, so every other hit of the file is still found.
    if (b.end - b.offset > WHOLE_BLOCK_BYTES) {
      for (const c of candidatesOf(entriesOf, b, filter)) {
        const hit = c.length <= MAX_LINE_TEXT ? checkAlone(ctx, met, f, c) : null;
        if (hit) yield { c, hit };
      }
      continue;
    }
    let span: Buffer;
    try {
      span = readerOf(ctx, f).readBytes(b.offset, b.end - b.offset, ctx.scratch);
    } catch {
      continue; // the file changed since it was indexed: the next sync re-reads it
    }
    if (!ctx.bytesTest(span, 0, span.length) || !ctx.rawTest(span.toString('latin1'))) continue;
    for (const c of candidatesOf(entriesOf, b, filter)) {
      const hit = checkCandidate(ctx, met, f, c, span.subarray(c.offset - b.offset, c.offset - b.offset + c.length));
      if (hit) yield { c, hit };
    }
  }
}

/**
 * Hits of filters alone: every block's entries in rowid order, a page of blocks at a time, until a
 * read finds none (blocks written while it pages, a file indexed again, come after those it read).
 */
function* entryHits(
  db: SearchDatabase,
  ctx: CheckContext,
  met: boolean[],
  byId: Map<number, FileInfo>,
  inGroup: ReadonlySet<number> | null,
  filter: EntryFilter,
): Found {
  const page = db.prepare<[number, number], BlockRow>(
    `SELECT ${BLOCK_COLUMNS} FROM blocks WHERE rowid > ? ORDER BY rowid LIMIT ?`,
  );
  const entriesOf = blockEntries(db);
  for (let after = 0; ;) {
    const rows = page.all(after, PAGE_BLOCKS);
    if (rows.length === 0) return;
    after = rows[rows.length - 1]!.rowid;
    yield null;
    const inScope = rows.filter((b) => (!inGroup || inGroup.has(b.file)) && byId.has(b.file));
    yield* verifyPage(
      ctx,
      met,
      byId,
      inScope.flatMap((b) => candidatesOf(entriesOf, b, filter)),
    );
  }
}
