/**
 * Keeps the search index in step with session files, by byte offset: an append indexes only the
 * new complete lines; a file that shrank, changed inode or whose last indexed bytes differ is
 * indexed again from the start; a file that is gone loses its rows. Session files are only read.
 */
import { blockTerms } from './rules/word-tokens';
import { IndexBusy, mergeSegments, type SearchDatabase } from './storage/search-db';
import { scanLines, type LineVisitor } from '../storage/line-scan';
import { FileParse, tailOf, type ParsedBlock, type ParsedFile } from './file-parse';
import { forgetTerms, listTerms, listVocabTerms } from './term-list';
import { readRange } from '../storage/read';
import { errnoCode, isGoneSync, statPathSync, type FileFacts } from '../storage/stat';

export { BLOCK_CHARS, BLOCK_ENTRIES } from './file-parse';

/** Lines per transaction (bounds the WAL while a big file is indexed). */
const LINES_PER_COMMIT = 5000;
/** Lines per commit during a bulk load. */
const BULK_LINES = 200_000;

export interface LineProblem {
  path: string;
  line: number;
  message: string;
}

export interface FileSync {
  path: string;
  /** 'append' = from the last offset; 'full' = from the start (new, truncated or replaced). */
  kind: 'unchanged' | 'append' | 'full' | 'removed';
  bytes: number;
  lines: number;
  /** Characters of searchable text indexed (for the index-size measurement). */
  textChars: number;
  problems: LineProblem[];
}

interface FileRow {
  id: number;
  ino: number;
  size: number;
  mtime_ms: number;
  indexed_to: number;
  next_line: number;
  tail: Buffer | null;
  last_id: string | null;
  v1: number;
}

/** Where a sync starts, and what the lines before it decided (a v1 file's ids chain on). */
interface Start {
  id: number;
  from: number;
  line: number;
  v1: boolean;
  lastId: string | null;
}

const buildingElsewhere = (): IndexBusy => new IndexBusy('another Canopy process is building the index');

/**
 * A query during a bulk load lists its terms first from FTS5's vocabulary (a read of the whole index
 * so far, ~15 ms per million characters before the final merge) once this many characters were
 * indexed since the last read, and UNLISTED_GROWTH times as many as before it: the files a build
 * reached are soon searched through the index (until then the byte stage reads them), and the reads
 * cost about a third of the last. With no query, the terms are read once, after the final merge.
 */
const FIRST_TERMS_CHARS = 250_000;
const UNLISTED_GROWTH = 3;

/** What marks a file indexed up to its last complete line (the files row's `done` statement). */
interface Done {
  id: number;
  ino: number;
  size: number;
  mtime: number;
  to: number;
  next: number;
  tail: Buffer | null;
}

export class SearchIndexer {
  private readonly st;
  /** Lines since the open transaction began, while a bulk load keeps one open across files. */
  private bulkLines: number | null = null;
  /**
   * Files a bulk load indexed whose terms are not listed yet, by path: they are marked indexed only
   * once they are (until then a query reads them from the file, as it does files not reached yet).
   */
  private readonly unlisted = new Map<string, Done>();
  /** Characters a bulk load indexed: listed in the term list, and since. */
  private listedChars = 0;
  private unlistedChars = 0;

  /**
   * `mayWrite`: asked once this sync holds the write lock (a file's rows must come from one process:
   * another's first build, committed mid-file, interleaved with ours lost lines).
   */
  constructor(
    private readonly db: SearchDatabase,
    private readonly mayWrite: () => boolean = () => true,
  ) {
    this.st = {
      file: db.prepare<[string], FileRow>(
        'SELECT id, ino, size, mtime_ms, indexed_to, next_line, tail, last_id, v1 FROM files WHERE path = ?',
      ),
      addFile: db.prepare<[string]>('INSERT INTO files (path) VALUES (?)'),
      header: db.prepare<[string, string, number, number]>(
        'UPDATE files SET session_id = ?, cwd = ?, v1 = ? WHERE id = ?',
      ),
      done: db.prepare(
        'UPDATE files SET ino = @ino, size = @size, mtime_ms = @mtime, indexed_to = @to, next_line = @next, tail = @tail WHERE id = @id',
      ),
      meta: db.prepare(
        'UPDATE files SET name = coalesce(@name, name), last_id = coalesce(@last, last_id), leaf_target = CASE WHEN @hasLeaf THEN @leaf ELSE leaf_target END, has_leaf = max(has_leaf, @hasLeaf) WHERE id = @id',
      ),
      block: db.prepare<[number, number, number]>('INSERT INTO blocks (file, offset, end) VALUES (?, ?, ?)'),
      entry: db.prepare<
        [number | bigint, number, number, number, string | null, string | null, string, number | null, string]
      >(
        'INSERT INTO entries (block, line, offset, length, id, parent_id, role, time, tools) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      text: db.prepare<[number | bigint, string]>('INSERT INTO fts_text (rowid, body) VALUES (?, ?)'),
      problem: db.prepare<[number, number, string]>('INSERT INTO problems (file, line, message) VALUES (?, ?, ?)'),
      clearText: db.prepare<[number]>('DELETE FROM fts_text WHERE rowid IN (SELECT rowid FROM blocks WHERE file = ?)'),
      clearEntries: db.prepare<[number]>(
        'DELETE FROM entries WHERE block IN (SELECT rowid FROM blocks WHERE file = ?)',
      ),
      clearBlocks: db.prepare<[number]>('DELETE FROM blocks WHERE file = ?'),
      clearProblems: db.prepare<[number]>('DELETE FROM problems WHERE file = ?'),
      reset: db.prepare<[number]>(
        'UPDATE files SET indexed_to = 0, next_line = 1, tail = NULL, name = NULL, last_id = NULL, leaf_target = NULL, has_leaf = 0, v1 = 0 WHERE id = ?',
      ),
      dropFile: db.prepare<[number]>('DELETE FROM files WHERE id = ?'),
      paths_: db.prepare<[], { path: string }>('SELECT path FROM files'),
    };
  }

  /** Before a query during a bulk load: lists its terms when enough was indexed since they last were. */
  listTermsIfDue(): void {
    if (
      this.bulkLines !== null &&
      this.unlistedChars >= Math.max(FIRST_TERMS_CHARS, UNLISTED_GROWTH * this.listedChars)
    )
      this.listBulkTerms();
  }

  /** Lists the terms of what the bulk load indexed, then marks its files indexed (their rows are whole). */
  private listBulkTerms(): void {
    if (this.unlisted.size === 0 && this.unlistedChars === 0) return;
    listVocabTerms(this.db);
    for (const done of this.unlisted.values()) this.st.done.run(done);
    this.unlisted.clear();
    this.listedChars += this.unlistedChars;
    this.unlistedChars = 0;
  }

  /** From now on syncs share one transaction, committed every BULK_LINES lines (see beginBulkLoad). */
  beginBulk(): void {
    if (this.bulkLines !== null) return;
    this.db.exec('BEGIN');
    this.bulkLines = 0;
  }

  /** `merge`: the load is complete, its segments are merged (mergeSegments) before its last terms are read. */
  endBulk(merge = false): void {
    if (this.bulkLines === null) return;
    if (merge) mergeSegments(this.db);
    this.listBulkTerms();
    this.db.exec('COMMIT');
    this.bulkLines = null;
  }

  get bulk(): boolean {
    return this.bulkLines !== null;
  }

  private clear(id: number): void {
    this.st.clearText.run(id);
    this.st.clearEntries.run(id);
    this.st.clearBlocks.run(id);
    this.st.clearProblems.run(id);
  }

  /** Forgets a file's rows (it was removed, or is no longer listed). */
  remove(path: string): boolean {
    const row = this.st.file.get(path);
    if (!row) return false;
    this.db.transaction(() => {
      this.clear(row.id);
      this.st.dropFile.run(row.id);
    })();
    return true;
  }

  /**
   * Forgets indexed files not in `keep` that are gone from disk; returns how many went. The index is
   * shared: a file this process does not list may be another process's (`canopy search --root A`
   * beside an app serving A and B), so only its absence removes it.
   */
  prune(keep: ReadonlySet<string>): number {
    let n = 0;
    for (const { path } of this.st.paths_.all()) {
      if (keep.has(path) || !isGoneSync(path)) continue;
      if (this.remove(path)) n++;
    }
    return n;
  }

  /** Where indexing of this file must start, or null when it is indexed as it is. */
  private async startOf(path: string, facts: FileFacts): Promise<Start | null> {
    const row = this.st.file.get(path);
    if (!row)
      return { id: Number(this.st.addFile.run(path).lastInsertRowid), from: 0, line: 1, v1: false, lastId: null };
    if (row.ino === facts.ino && row.size === facts.size && row.mtime_ms === facts.mtimeMs) return null;
    let same = row.ino === facts.ino && facts.size >= row.indexed_to;
    if (same && row.tail && row.tail.length > 0) {
      const now = await readRange(path, row.indexed_to - row.tail.length, row.tail.length);
      same = now.equals(row.tail);
    }
    if (same) return { id: row.id, from: row.indexed_to, line: row.next_line, v1: row.v1 === 1, lastId: row.last_id };
    this.db.transaction(() => {
      this.clear(row.id);
      this.st.reset.run(row.id);
    })();
    return { id: row.id, from: 0, line: 1, v1: false, lastId: null };
  }

  /** Writes a parsed block: its byte range and entries, then (with text) its FTS5 row under the same rowid. */
  private writeBlock(file: number, block: ParsedBlock): void {
    const rowid = this.st.block.run(file, block.from, block.to).lastInsertRowid;
    for (const e of block.entries)
      this.st.entry.run(rowid, e.line, e.offset, e.length, e.id, e.parentId, e.role, e.time, e.tools);
    if (block.chars === 0) return;
    let indexed = block.indexed;
    if (indexed === null) {
      const split = blockTerms(block.text ?? '');
      listTerms(this.db, split.terms);
      indexed = split.indexed;
    }
    // A bulk load lists its terms from FTS5's vocabulary later (listBulkTerms): no word split here.
    if (this.bulkLines !== null) this.unlistedChars += block.chars;
    this.st.text.run(rowid, indexed);
  }

  /** What a file's parse says of it besides its blocks: header, problems, name, last id, leaf. */
  private writeFacts(
    file: number,
    path: string,
    parse: Pick<FileParse, 'header' | 'problems' | 'meta'>,
  ): LineProblem[] {
    const h = parse.header;
    if (h) this.st.header.run(h.sessionId, h.cwd, h.v1 ? 1 : 0, file);
    for (const p of parse.problems) this.st.problem.run(file, p.line, p.message);
    this.st.meta.run({ id: file, ...parse.meta });
    return parse.problems.map((p) => ({ path, ...p }));
  }

  /** Marks a file indexed up to `done.to` (in a bulk load, once its terms are listed). */
  private markDone(path: string, done: Done): void {
    if (this.bulkLines === null) this.st.done.run(done);
    else this.unlisted.set(path, done);
  }

  /** Commits a bulk load's transaction once it holds BULK_LINES lines (between files or blocks). */
  private bulkCommit(lines: number): void {
    if (this.bulkLines === null || (this.bulkLines += lines) < BULK_LINES) return;
    this.db.exec('COMMIT; BEGIN');
    this.bulkLines = 0;
  }

  /**
   * Writes a file a bulk load's worker parsed whole (file-parse.ts parseFile); null when the index
   * already holds rows of it (it is then synced here, from where they end).
   */
  applyParsed(parsed: ParsedFile): FileSync | null {
    if (this.bulkLines === null || this.st.file.get(parsed.path)) return null;
    const { path } = parsed;
    const id = Number(this.st.addFile.run(path).lastInsertRowid);
    for (const b of parsed.blocks) this.writeBlock(id, b);
    const problems = this.writeFacts(id, path, parsed);
    this.markDone(path, {
      id,
      ino: parsed.ino,
      size: parsed.size,
      mtime: parsed.mtimeMs,
      to: parsed.endOffset,
      next: parsed.nextLine,
      tail: parsed.tail ? Buffer.from(parsed.tail.buffer, parsed.tail.byteOffset, parsed.tail.length) : null,
    });
    this.bulkCommit(parsed.lines);
    return { path, kind: 'full', bytes: parsed.endOffset, lines: parsed.lines, textChars: parsed.textChars, problems };
  }

  /** Brings one file's rows up to date with its complete lines. */
  async sync(path: string, signal?: AbortSignal, pause?: () => Promise<void> | null): Promise<FileSync> {
    let facts: FileFacts;
    try {
      facts = statPathSync(path);
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT') throw err;
      this.remove(path);
      return { path, kind: 'removed', bytes: 0, lines: 0, textChars: 0, problems: [] };
    }
    // Asked again once the write lock is held (below): startOf may clear rows.
    if (this.bulkLines === null && !this.mayWrite()) throw buildingElsewhere();
    // Indexed by this bulk load but not marked yet: marked first, so it is known unchanged.
    if (this.unlisted.has(path)) this.listBulkTerms();
    const start = await this.startOf(path, facts);
    if (!start) return { path, kind: 'unchanged', bytes: 0, lines: 0, textChars: 0, problems: [] };
    const { id } = start;
    let pending = 0;
    const parse = new FileParse(start, this.bulkLines !== null, (b) => {
      this.writeBlock(id, b);
      // Blocks not yet written are not in the transaction: a commit here leaves no block in two.
      if (this.bulkLines !== null) this.bulkCommit(pending);
      else if (pending >= LINES_PER_COMMIT) this.db.exec('COMMIT; BEGIN');
      else return;
      pending = 0;
    });
    const visit: LineVisitor = (b, s, e, line, offset, complete) => {
      if (complete) pending++;
      parse.visit(b, s, e, line, offset, complete);
    };
    const own = this.bulkLines === null;
    if (own) {
      this.db.exec('BEGIN IMMEDIATE');
      if (!this.mayWrite()) {
        this.db.exec('ROLLBACK');
        throw buildingElsewhere();
      }
    }
    let result;
    let problems: LineProblem[];
    try {
      result = await scanLines(path, visit, {
        onOversized: parse.oversized,
        fromOffset: start.from,
        firstLine: start.line,
        ...(signal ? { signal } : {}),
        ...(pause ? { pause } : {}),
      });
      parse.flush();
      if (!own) this.bulkCommit(pending);
      problems = this.writeFacts(id, path, parse);
      this.markDone(path, {
        id,
        ino: result.ino,
        size: result.size,
        mtime: result.mtimeMs,
        to: result.endOffset,
        next: result.nextLine,
        tail: await tailOf(path, result.endOffset),
      });
      if (own) this.db.exec('COMMIT');
    } catch (err) {
      // A bulk load's transaction holds other files: this file's rows are cleared below instead.
      if (own) {
        this.db.exec('ROLLBACK');
        // Terms this transaction listed are gone with it: the list is read again before the next insert.
        forgetTerms(this.db);
      }
      // Lines already committed in earlier batches have no recorded offset: start over next time.
      this.db.transaction(() => {
        this.clear(id);
        this.st.reset.run(id);
      })();
      throw err;
    }
    return {
      path,
      kind: start.from === 0 ? 'full' : 'append',
      bytes: result.endOffset - start.from,
      lines: parse.lines,
      textChars: parse.textChars,
      problems,
    };
  }
}
